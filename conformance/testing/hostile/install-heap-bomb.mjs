// install() grows the heap without end.
export default { name: 'install-heap-bomb', version: '1', install() { const a = []; for (;;) a.push({ x: 'y'.repeat(64) + a.length }) } }
