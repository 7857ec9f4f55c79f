export { compileContracts, type Artifact, type Artifacts } from './compile.js';
export { npmArtifact } from './npm-artifacts.js';
