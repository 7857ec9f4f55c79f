export { runLiveActivity, type LiveOptions } from './live-activity.js';
