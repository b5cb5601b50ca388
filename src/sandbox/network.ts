// Node 20's permission model has no network permission (22's neither), so the child closes the network itself,
// before the policy's code is loaded: every built-in entry point that opens a socket or asks a resolver is replaced
// by one that throws a refused access, and the ES module views of the built-ins are synced to the replacements (a
// policy's `import net from 'node:net'` is linked after this runs). The originals are not kept anywhere the policy
// can reach. Child processes and workers, the other ways out, are refused by the permission model itself.
// It is the text of a CommonJS script: it runs on the child's command line, ahead of the bundle.
export const CLOSE_NETWORK = `(() => {
  const deny = (what) => function denied() {
    throw Object.assign(new Error('network access refused by the sandbox: ' + what), { code: 'ERR_ACCESS_DENIED', permission: 'Network', resource: what });
  };
  const close = (name, target, keys, prefix = name) => {
    for (const key of keys) if (typeof target[key] === 'function') target[key] = deny(prefix + '.' + key);
  };
  const net = require('node:net');
  close('net', net, ['connect', 'createConnection', 'createServer']);
  close('net', net.Socket.prototype, ['connect'], 'net.Socket');
  close('net', net.Server.prototype, ['listen'], 'net.Server');
  close('tls', require('node:tls'), ['connect', 'createServer']);
  for (const name of ['http', 'https']) {
    const m = require('node:' + name);
    close(name, m, ['request', 'get', 'createServer']);
    close(name, m.Agent.prototype, ['createConnection'], name + '.Agent');
  }
  close('http2', require('node:http2'), ['connect', 'createServer', 'createSecureServer']);
  close('dgram', require('node:dgram'), ['createSocket']);
  const dns = require('node:dns');
  const resolving = (target) => Object.keys(target).filter((k) => /^(lookup|resolve|reverse)/.test(k));
  close('dns', dns, resolving(dns));
  close('dns', dns.promises, resolving(dns.promises), 'dns.promises');
  for (const R of [dns.Resolver, dns.promises.Resolver]) close('dns', R.prototype, Object.getOwnPropertyNames(R.prototype).filter((k) => /^(resolve|reverse)/.test(k)), 'dns.Resolver');
  for (const key of ['fetch', 'WebSocket', 'EventSource']) if (typeof globalThis[key] === 'function') globalThis[key] = deny(key);
  require('node:module').syncBuiltinESMExports();
})();`;
