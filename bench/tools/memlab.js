// Bench adapter for @memlab/core: parse a snapshot, then what memlab's own full load does
// (analysis.preparePathFinder: shortest paths, dominators, retained sizes). Prints one JSON line.
import memlab from '@memlab/core'; // CommonJS: no named exports

const { analysis, config, utils } = memlab;

const file = process.argv[2];
config.muteConsole = true; // keep stdout to our one result line
const snapshot = await utils.getSnapshotFromFile(file, { buildNodeIdIndex: true });
analysis.preparePathFinder(snapshot);
const root = snapshot.nodes.get(0);
console.log(JSON.stringify({ nodes: snapshot.nodes.length, edges: snapshot.edges.length, rootRetainedSize: root.retainedSize }));
