// A process adapter whose process() never settles.
export default { name: 'process-never-settles', version: '1', process: () => new Promise(() => {}) }
