import type { FixtureExpectations } from '../expectation.js';

// Rung 0 is identity of the whole observation: call, status and every block. Look-alikes are refused; copies go.
const expectations: FixtureExpectations = {
  fixture: 'rule-rung0-copies-and-look-alikes',
  decisions: [
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'KEEP',
      why: 'Byte-identical "2.14.1" from a different command (git describe) is not a copy: each answer is its own evidence.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'KEEP',
      why: 'The failed git fetch and the later successful one print the same stdout, but an error is never a copy of a success.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'KEEP',
      why: 'Same call and caption as the later screenshot, but the image block differs: not the same observation.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i11',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Same read_file call, ok status and bytes as i20, which stays.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i13',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Different URL forms, but web_fetch declares repetition irrelevant, so identical ok output of another call is a copy.',
    },
    {
      condition: 'ladder-0',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'KEEP',
      why: "The ladder's rung 0 refuses the two-command look-alike too.",
    },
    {
      condition: 'ladder-0',
      prunePoint: 'p1',
      item: 'i11',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The same-call copy goes in the ladder as alone.',
    },
    {
      condition: 'ladder-0-2',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'KEEP',
      why: 'No higher rung treats a different screenshot as covered: it has no source or coverage.',
    },
    {
      condition: 'same-tool-args-dedup',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'Same tool and arguments as the after screenshot: DCP-style dedup drops the before image the PR needs without comparing outputs.',
    },
    {
      condition: 'same-tool-args-dedup',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'KEEP',
      why: 'DCP replaces only completed outputs; the errored fetch stays.',
    },
  ],
  obligations: [
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      obligation: 'd-before-after',
      preserved: true,
      why: 'Rung 0 keeps both screenshots.',
    },
  ],
};

export default expectations;
