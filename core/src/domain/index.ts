export * from './enums';
export * from './limits';
export * from './messages';
export * from './password';
export * from './format';
export * from './document-groups';
export * from './bulk-manifest';
export * from './csv';
