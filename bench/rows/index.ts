// `npm run bench:rows`: a channel looked up by cid as a watch does it, its row built three ways, side by side in one
// process: our shaped statements (row-builder.ts), better-sqlite3's own row objects (what Kysely's driver returns),
// and arrays turned into objects by keyed stores (the direct reads before 2026-11-28). Each operation looks the row
// up, reads five of its fields and serialises it, as the watch path does.
import Database from 'better-sqlite3';
import { shapedStatement } from '../../packages/chat-server/src/db/row-builder.ts';
import { compare, sinkValue, type MeasureSettings } from '../domain/measure.ts';

const SETTINGS: MeasureSettings = { warmupMs: 300, roundMs: 300, rounds: 7 };
const CHANNELS = 1_000;

// The columns of `channels` (packages/chat-server/src/db/schema.ts), with values of the same kinds.
const COLUMNS: [string, string | number | null][] = [
  ['app_id', 'app'],
  ['cid', ''],
  ['type', 'livestream'],
  ['id', ''],
  ['created_by_id', 'tong-chu'],
  ['name', 'Thanh Vân Môn'],
  ['name_search', 'thanh van mon'],
  ['image', null],
  ['custom', '{"motto":"Đạo pháp tự nhiên"}'],
  ['team', null],
  ['frozen', 0],
  ['disabled', 0],
  ['cooldown', 0],
  ['member_count', 12],
  ['distinct_key', null],
  ['last_message_at', '2026-11-28T01:00:00.000000Z'],
  ['truncated_at', null],
  ['created_at', '2026-11-28T00:00:00.000000Z'],
  ['updated_at', '2026-11-28T00:00:00.000000Z'],
  ['deleted_at', null],
  ['state_version', 7],
  ['config_overrides', null],
  ['truncated_by_id', null],
];

const database = new Database(':memory:');
database.exec(
  `create table channels (${COLUMNS.map(([name], i) => `${name}${i === 1 ? ' primary key' : ''}`).join(', ')})`,
);
const insert = database.prepare(
  `insert into channels values (${COLUMNS.map(() => '?').join(', ')})`,
);
for (let i = 0; i < CHANNELS; i += 1) {
  insert.run(
    COLUMNS.map(([name, value]) =>
      name === 'cid' ? `livestream:c${i}` : name === 'id' ? `c${i}` : value,
    ),
  );
}
const sql = 'select * from channels where cid = ?';
const shaped = shapedStatement(database.prepare(sql));
const objects = database.prepare(sql);
const arrays = database.prepare(sql).raw(true);
const names = arrays.columns().map((column) => column.name);

function keyedStores(values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i += 1) row[names[i]!] = values[i];
  return row;
}

type Row = Record<string, unknown>;
const use = (row: Row): number =>
  String(row.cid).length +
  Number(row.state_version) +
  Number(row.member_count) +
  String(row.created_by_id).length +
  (row.deleted_at === null ? 1 : 0) +
  JSON.stringify(row).length;

const cids = Array.from({ length: CHANNELS }, (_, i) => `livestream:c${i}`);
const viaShaped = (cid: string) => use(shaped.all([cid])[0] as Row);
const viaObjects = (cid: string) => use(objects.all(cid)[0] as Row);
const viaKeyedStores = (cid: string) => use(keyedStores(arrays.all(cid)[0] as unknown[]));

for (const cid of cids.slice(0, 10)) {
  const expected = JSON.stringify(objects.get(cid));
  if (
    JSON.stringify(shaped.all([cid])[0]) !== expected ||
    JSON.stringify(keyedStores(arrays.get(cid) as unknown[])) !== expected
  )
    throw new Error(`bench:rows: the three ways disagree on ${cid}`);
}

const rows = [
  ['better-sqlite3 row objects', compare(viaShaped, viaObjects, cids, SETTINGS)],
  ['arrays + keyed stores', compare(viaShaped, viaKeyedStores, cids, SETTINGS)],
] as const;
console.info(
  `bench:rows: Node ${process.version}; ${COLUMNS.length} columns, ${CHANNELS} channels; ` +
    `${SETTINGS.rounds} alternating rounds of ${SETTINGS.roundMs} ms per side.\n`,
);
console.info('| baseline | shaped ops/s | baseline ops/s | shaped / baseline |');
console.info('|---|---:|---:|---:|');
for (const [name, result] of rows) {
  console.info(
    `| ${name} | ${Math.round(result.oursOpsPerSec).toLocaleString('en-US')} | ` +
      `${Math.round(result.baselineOpsPerSec).toLocaleString('en-US')} | ${result.ratio.toFixed(2)}× |`,
  );
}
console.info(`\n(sink ${sinkValue() % 997})`);
