// count.mjs: the tokens of what each agent of make bench-agent received.
//
//   node count.mjs texts.json
//
// texts.json (written by wasm/cmd/agentsession) is {"<agent>": ["text", ...]};
// this prints {"encoding", "version", "agents": {"<agent>": {messages, bytes,
// tokens}}} on stdout: bytes are UTF-8 bytes, tokens are gpt-tokenizer's
// o200k_base (the encoding of GPT-4o and later), at the version
// package-lock.json pins. Each text is counted on its own, as each reached
// the agent as a message of its own.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const require = createRequire(import.meta.url);
const { version } = require('gpt-tokenizer/package.json');

const file = process.argv[2];
if (!file) {
  console.error('usage: node count.mjs texts.json');
  process.exit(2);
}
const texts = JSON.parse(readFileSync(file, 'utf8'));
const agents = {};
for (const [agent, list] of Object.entries(texts)) {
  let bytes = 0, tokens = 0;
  for (const t of list) {
    bytes += Buffer.byteLength(t, 'utf8');
    tokens += countTokens(t);
  }
  agents[agent] = { messages: list.length, bytes, tokens };
}
process.stdout.write(JSON.stringify({ encoding: 'o200k_base', tokenizer: 'gpt-tokenizer', version, agents }) + '\n');
