/** All models; importing this registers them with Mongoose. */
export * from './project.js';
export * from './check.js';
export * from './ping.js';
export * from './flip.js';
export * from './channel.js';
export * from './notification.js';
export * from './user.js';
export * from './membership.js';
export * from './invitation.js';
export * from './api-key.js';
export * from './account-token.js';
export * from './report.js';
export * from './status-page.js';
export * from './incident.js';
