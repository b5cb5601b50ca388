// The script and stylesheet every page of the site loads as sibling files (so a page opens from disk, with no server
// and no network): the script draws a page's columns from the JSON the page carries. Written as plain browser
// JavaScript in a string, since the project compiles for Node only; the browser test (test/view/) runs it.
export const CLIENT_SCRIPT = String.raw`'use strict';
(function () {
  var data = JSON.parse(document.getElementById('page-data').textContent);
  var root = document.getElementById('app');

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] === null || attrs[k] === undefined || attrs[k] === false) return;
      if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k] === true ? '' : String(attrs[k]));
    });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }
  function num(n) { return Number(n).toLocaleString('en-US'); }
  function stateText(state) {
    for (var i = 0; i < data.states.length; i++) if (data.states[i].state === state) return data.states[i];
    return { state: state, label: state.toUpperCase(), meaning: '' };
  }
  function badge(state) { return el('span', { class: 'badge', text: stateText(state).label }); }

  function readHash() {
    var out = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      if (!kv) return;
      var i = kv.indexOf('=');
      out[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? '' : decodeURIComponent(kv.slice(i + 1));
    });
    return out;
  }
  function writeHash(p) {
    var parts = [];
    Object.keys(p).forEach(function (k) {
      if (p[k] !== undefined && p[k] !== null && p[k] !== '') parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(p[k]));
    });
    location.hash = parts.join('&');
  }

  var page = data.page;
  var itemsById = {};
  page.items.forEach(function (it) { itemsById[it.id] = it; });
  function pointOf(id) {
    for (var i = 0; i < page.points.length; i++) if (page.points[i].id === id) return page.points[i];
    return page.points[0];
  }
  function conditionOf(name) {
    for (var i = 0; i < page.conditions.length; i++) if (page.conditions[i].name === name) return page.conditions[i];
    return null;
  }

  function obligationList(list, outcomes) {
    if (!list.length) return el('p', { class: 'none', text: 'none' });
    return el('ul', {}, list.map(function (o) {
      var out = null;
      (outcomes || []).forEach(function (x) { if (x.id === o.id) out = x; });
      var needs = [];
      if (o.items.length) needs.push('items ' + o.items.join(', '));
      if (o.strings.length) needs.push('strings "' + o.strings.join('", "') + '"');
      return el('li', { class: 'obligation', 'data-obligation': o.id }, [
        el('b', { text: o.id }), ' (turn ' + o.neededAtTurn + '): ' + o.description,
        needs.length ? el('span', { class: 'needs', text: ' — needs ' + needs.join('; ') }) : null,
        out ? el('span', { class: 'outcome ' + (out.preserved ? 'kept' : 'lost'),
          text: ' — under this condition: ' + (out.preserved ? 'PRESERVED (' + out.how + ')' : 'LOST' + (out.missing.length ? ' (missing ' + out.missing.join(', ') + ')' : '')) }) : null,
      ]);
    }));
  }

  function visiblePanel(point, open) {
    var v = point.visible;
    var rows = [el('h4', { text: 'Visible obligations' }), obligationList(v.obligations, null)];
    if (v.pendingSteps.length) rows.push(el('h4', { text: 'Pending steps' }), el('ul', {}, v.pendingSteps.map(function (s) {
      return el('li', {}, [el('b', { text: s.id }), ': ' + s.description + ' (refers to ' + s.references.join(', ') + ')']);
    })));
    if (v.workUnits.length) rows.push(el('h4', { text: 'Work units' }), el('ul', {}, v.workUnits.map(function (u) {
      return el('li', {}, [el('b', { text: u.id }), ' [' + u.state + ']: ' + u.description]);
    })));
    if (v.pinned.length) rows.push(el('p', { text: 'Pinned: ' + v.pinned.join(', ') }));
    if (v.protectedTools.length) rows.push(el('p', { text: 'Protected tools: ' + v.protectedTools.join(', ') }));
    return el('details', { class: 'visible', open: open }, [el('summary', { text: 'What the runtime declared at ' + point.id + ' (visible to every policy)' })].concat(rows));
  }

  function hiddenPanel(point, column) {
    if (!point.hidden) return el('p', { class: 'hidden-oracle', text: 'Unscored trace: no oracle.' });
    return el('div', { class: 'hidden-oracle', role: 'region', 'aria-label': 'hidden oracle' }, [
      el('h4', { text: 'Hidden oracle (no policy saw this)' }),
      point.hidden.rationale ? el('p', { class: 'rationale', text: point.hidden.rationale }) : null,
      el('h4', { text: 'Downstream obligations, as scored' }),
      obligationList(point.hidden.downstream, column.obligations),
    ]);
  }

  function itemCard(point, d, reveal, trail) {
    var it = itemsById[d.itemId];
    var st = stateText(d.state);
    var removed = d.state === 'removed' || d.state === 'residue';
    var head = el('div', { class: 'head' }, [
      badge(d.state), ' ', el('b', { text: it.id }),
      ' ' + it.origin + ' ' + it.kind + (it.tool ? ' ' + it.tool : '') + (it.status === 'error' ? ' (error)' : '') +
      ' · turn ' + it.turn + ' · ' + num(d.tokens.item) + ' tokens',
    ]);
    var decision = el('div', { class: 'decision' }, [
      el('span', { class: 'verdict', text: d.decision }),
      d.rung === null ? ' · no rung' : ' · rung ' + d.rung,
      ' · rule ' + d.rule + ' — ', el('span', { class: 'reason', text: d.reason }),
    ]);
    var body = [];
    if (removed) {
      body.push(el('div', { class: 'label', text: 'In context in its place:' }));
      body.push(d.placeholder === null ? el('p', { class: 'placeholder none', text: '(nothing: no placeholder)' })
        : el('pre', { class: 'placeholder', text: d.placeholder }));
      body.push(el('details', { class: 'original' }, [el('summary', { text: 'Removed content (no longer in context)' }),
        el('pre', { class: 'content', text: it.content + (it.cutChars ? '\n… ' + num(it.cutChars) + ' more characters' : '') })]));
    } else {
      body.push(el('pre', { class: 'content', text: it.content + (it.cutChars ? '\n… ' + num(it.cutChars) + ' more characters' : '') }));
    }
    var note = point.hidden && point.hidden.items[d.itemId];
    var oracle = reveal && note ? el('div', { class: 'oracle oracle-' + note.verdict }, [
      el('b', { text: 'Oracle: ' + note.verdict.toUpperCase() }), ' — ' + note.reason,
      d.outcome ? el('span', { class: 'outcome ' + d.outcome, text: ' — this removal is a ' + d.outcome.toUpperCase() }) : null,
    ]) : null;
    return el('li', { class: 'item state-' + d.state, 'data-state': d.state, 'data-item': d.itemId, title: st.meaning }, [
      head, trail, decision,
      d.decision === 'DEFER' ? el('div', { class: 'timing', text: 'timing: ' + d.timing }) : null,
    ].concat(body).concat([oracle]));
  }

  function column(conditionName, pointId, reveal, caption, trails) {
    var cond = conditionOf(conditionName);
    var point = pointOf(pointId);
    if (!cond) return el('section', { class: 'column' }, [el('p', { text: 'No condition ' + conditionName })]);
    var col = cond.columns[point.id];
    var n = col.unlogged && col.unlogged.decisions;
    var counts = col.counts ? el('ul', { class: 'counts', 'aria-label': 'items per state' }, data.states.map(function (s) {
      return el('li', { class: 'count state-' + s.state, 'data-state': s.state, 'data-count': col.counts[s.state], title: s.meaning }, [
        badge(s.state), ' ', el('span', { class: 'n', text: String(col.counts[s.state]) }),
      ]);
    })) : el('div', { class: 'unlogged', role: 'note' }, [
      n ? el('p', { class: 'decision-counts', text: 'decisions: ' + num(n.total) + ' (keep ' + num(n.keep) + ', prune ' + num(n.prune) +
        ', defer ' + num(n.defer) + ', abstain ' + num(n.abstain) + ')' }) : null,
      el('p', { text: col.unlogged.note }),
    ]);
    var t = col.tokens;
    return el('section', { class: 'column', 'data-condition': cond.name, 'data-point': point.id,
      'aria-label': cond.name + ' at ' + point.id }, [
      el('h2', { text: cond.name + ' at ' + point.id }),
      caption ? el('p', { class: 'caption', text: caption }) : null,
      el('p', { class: 'meta', text: 'layer ' + cond.layer + (cond.rung === null ? '' : ', rung ' + cond.rung) +
        ' · turn ' + point.turn + ' · budget ' + num(point.budgetTokens) + ' tokens' + (point.taskBoundary ? ' · task boundary' : '') }),
      el('p', { class: 'subgoal', text: 'Subgoal: ' + point.subgoal }),
      counts,
      t ? el('p', { class: 'tokens', text: 'tokens: raw ' + num(t.raw) + ' → final ' + num(t.final) + ' (removed ' + num(t.removed) +
        ', placeholders ' + num(t.placeholder) + ', overhead ' + num(t.overhead) + ')' }) : null,
      visiblePanel(point, data.kind !== 'scene'),
      reveal ? hiddenPanel(point, col) : null,
      el('ol', { class: 'items' }, col.decisions.map(function (d) {
        return itemCard(point, d, reveal, trails ? trails(d.itemId) : null);
      })),
    ]);
  }

  function legend() {
    return el('details', { class: 'legend', open: true }, [el('summary', { text: 'What each state means' }),
      el('ul', {}, data.states.map(function (s) {
        return el('li', { class: 'count state-' + s.state }, [badge(s.state), ' ' + s.meaning]);
      }))]);
  }

  function revealToggle(p) {
    var box = el('input', { type: 'checkbox', id: 'reveal-oracle', checked: p.oracle === '1' });
    box.addEventListener('change', function () { p.oracle = box.checked ? '1' : ''; writeHash(p); });
    return el('label', { class: 'toggle', for: 'reveal-oracle' }, [box,
      ' Reveal the hidden oracle and the downstream obligations (what scoring used; no policy saw them)']);
  }

  function select(id, label, options, value, onChange) {
    var s = el('select', { id: id }, options.map(function (o) {
      return el('option', { value: o.value, selected: o.value === value, text: o.text });
    }));
    s.addEventListener('change', function () { onChange(s.value); });
    return el('label', { for: id }, [label + ' ', s]);
  }

  function renderFixture() {
    var p = readHash();
    var point = pointOf(p.point).id;
    var a = conditionOf(p.a) ? p.a : data.defaultCondition;
    var b = conditionOf(p.b) ? p.b : '';
    var reveal = p.oracle === '1';
    var names = page.conditions.map(function (c) { return { value: c.name, text: c.name }; });
    var controls = el('div', { class: 'controls' }, [
      select('pick-point', 'Prune point', page.points.map(function (x) { return { value: x.id, text: x.id + ' (turn ' + x.turn + ')' }; }), point,
        function (v) { p.point = v; writeHash(p); }),
      select('pick-a', 'Condition', names, a, function (v) { p.a = v; writeHash(p); }),
      select('pick-b', 'Side by side with', [{ value: '', text: '— none —' }].concat(names), b, function (v) { p.b = v; writeHash(p); }),
      revealToggle(p),
    ]);
    var cols = el('div', { class: b ? 'columns pair' : 'columns' }, [column(a, point, reveal)].concat(b ? [column(b, point, reveal)] : []));
    root.replaceChildren(controls, legend(), cols);
  }

  function renderScene() {
    var p = readHash();
    var reveal = p.oracle === '1';
    var trail = function (itemId) {
      return el('div', { class: 'trail' }, ['across the snapshots: '].concat(data.snapshots.map(function (s, i) {
        var col = conditionOf(s.condition).columns[s.point];
        var found = null;
        col.decisions.forEach(function (d) { if (d.itemId === itemId) found = d; });
        var step = el('span', { class: found ? 'step state-' + found.state : 'step absent', text: (i + 1) + ' ' + (found ? stateText(found.state).label : 'NOT YET') });
        return i + 1 < data.snapshots.length ? el('span', {}, [step, ' → ']) : step;
      })));
    };
    var cols = el('div', { class: 'columns scene' }, data.snapshots.map(function (s, i) {
      return column(s.condition, s.point, reveal, (i + 1) + '. ' + s.title + ' — ' + s.caption, trail);
    }));
    root.replaceChildren(el('div', { class: 'controls' }, [revealToggle(p)]), legend(), cols);
  }

  function render() { if (data.kind === 'scene') renderScene(); else renderFixture(); }
  window.addEventListener('hashchange', render);
  render();
})();
`;

/** Colour is one of three cues for a state: each also has its text label and its own border style. */
export const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1rem 1.5rem; color: #1a1a1a; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; } h2 { font-size: 1.1rem; margin: .2rem 0; } h4 { margin: .6rem 0 .2rem; }
a { color: #0645ad; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: 12px; }
th, td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.note { color: #444; max-width: 70rem; }
.controls { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .5rem 0; padding: .5rem; background: #f3f3f3; }
.columns { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
.columns.pair { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.columns.scene { grid-template-columns: repeat(3, minmax(0, 1fr)); }
.column { border: 1px solid #999; padding: .5rem; min-width: 0; }
.counts { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem; }
.count { padding: 1px 6px; }
.items { list-style: none; padding: 0; margin: 0; }
.item { margin: .4rem 0; padding: .3rem .5rem; border-left-width: 6px; }
.badge { font-weight: bold; font-size: 11px; letter-spacing: .03em; padding: 0 4px; border: 1px solid currentColor; }
pre { white-space: pre-wrap; word-break: break-word; max-height: 12rem; overflow: auto; margin: .2rem 0; font-size: 12px; background: rgba(255,255,255,.6); }
pre.placeholder { font-style: italic; }
.label { font-size: 12px; font-weight: bold; }
.decision, .timing, .trail { font-size: 12px; }
.verdict { font-weight: bold; }
.state-retained { background: #eef5ee; border: 1px solid #4c8c4c; border-left: 6px solid #4c8c4c; }
.state-protected { background: #e4ecfb; border: 2px double #1f4fa8; border-left: 6px double #1f4fa8; }
.state-removed { background: #fbe9e7; border: 1px dashed #b3261e; border-left: 6px dashed #b3261e; }
.state-residue { background: #fdf0dc; border: 1px dashed #a15c00; border-left: 6px dotted #a15c00; }
.state-deferred { background: #f0e9f7; border: 1px dotted #6a3d9a; border-left: 6px dotted #6a3d9a; }
.state-abstained { background: #f1f1f1; border: 1px solid #666; border-left: 6px groove #666; }
.step { padding: 0 2px; border-width: 1px !important; white-space: nowrap; }
.hidden-oracle, .oracle { background: #fffbe6; border: 1px solid #c9a400; padding: .3rem .5rem; margin: .3rem 0; }
.outcome.lost, .outcome.false-prune { color: #b3261e; font-weight: bold; }
.outcome.kept, .outcome.true-prune { color: #2e6b2e; }
.legend ul { list-style: none; padding: 0; }
.legend li { margin: .2rem 0; padding: 2px 6px; }
img.chart { max-width: 100%; height: auto; border: 1px solid #ddd; }
figure { margin: 1rem 0; }
`;
