// Configuration files as JSON and YAML (a Kubernetes ConfigMap, a service config), with one setting the trajectory
// can change and an obligation can quote.
import type { Rng } from '../rng.js';
import { NOUNS, snake, DOMAINS } from './vocab.js';

export interface Setting {
  readonly key: string;
  readonly value: string;
}

export interface ConfigFile {
  readonly content: string;
  readonly setting: Setting;
  readonly format: 'json' | 'yaml';
}

function extraKeys(r: Rng, chars: number): [string, string][] {
  const out: [string, string][] = [];
  const used = new Set<string>();
  let size = 0;
  while (size < chars) {
    const key = snake(
      r.pick(DOMAINS),
      r.pick(NOUNS),
      r.pick(['timeout_ms', 'max_retries', 'pool_size', 'enabled', 'url', 'batch_size', 'ttl_seconds']),
    ).toUpperCase();
    if (used.has(key)) continue;
    used.add(key);
    const value = key.endsWith('ENABLED')
      ? r.pick(['true', 'false'])
      : key.endsWith('URL')
        ? `https://${r.pick(NOUNS)}.${r.pick(DOMAINS)}.svc:${r.int(3000, 9999)}`
        : String(r.int(1, 5000));
    out.push([key, value]);
    size += key.length + value.length + 8;
  }
  return out;
}

/** `setting` is placed among generated keys; `tokens` sizes the file. */
export function configFile(
  r: Rng,
  format: 'json' | 'yaml',
  name: string,
  setting: Setting,
  tokens: number,
): ConfigFile {
  // Upper-case keys, URLs and numbers tokenize at about 3 characters a token, denser than code.
  const keys = extraKeys(r, Math.round(tokens * 3.1));
  const at = r.int(0, keys.length);
  keys.splice(at, 0, [setting.key, setting.value]);
  if (format === 'json') {
    const body = keys
      .map(([k, v]) => `  "${k}": ${/^\d+$|^true$|^false$/.test(v) ? v : JSON.stringify(v)}`)
      .join(',\n');
    return { content: `{\n${body}\n}\n`, setting, format };
  }
  const body = keys.map(([k, v]) => `  ${k}: "${v}"`).join('\n');
  return {
    content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${name.split('-')[0]}-staging\n  resourceVersion: "${r.int(100000, 9999999)}"\ndata:\n${body}\n`,
    setting,
    format,
  };
}

/** The same file with one setting's value replaced. */
export function withSetting(file: ConfigFile, value: string): ConfigFile {
  const { key } = file.setting;
  const content =
    file.format === 'json'
      ? file.content.replace(
          new RegExp(`"${key}": [^,\\n]+`),
          `"${key}": ${/^\d+$/.test(value) ? value : JSON.stringify(value)}`,
        )
      : file.content
          .replace(`${key}: "${file.setting.value}"`, `${key}: "${value}"`)
          .replace(/resourceVersion: "(\d+)"/, (_, v: string) => `resourceVersion: "${Number(v) + 1}"`);
  return { content, setting: { key, value }, format: file.format };
}
