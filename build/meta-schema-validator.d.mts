// Types of meta-schema-validator.mjs for the test that holds the committed file to it.
export declare const META_SCHEMA_ID: string;
export declare const TARGET: string;
export declare function metaSchemaValidatorSource(): string;
