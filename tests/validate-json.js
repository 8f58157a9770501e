// tests/validate-json.js - validate JSON documents against a JSON Schema
// (draft-04 or draft-07, by the schema's "$schema"; formats checked) with
// ajv, for the end-to-end tests.
//
//   node tests/validate-json.js SCHEMA FILE...
//
// Prints "FILE: ok" or "FILE: INSTANCE-PATH MESSAGE" per error; exits 0
// only when every FILE is valid.  NODE_PATH must reach ajv and ajv-formats
// (tests/npm-deps.sh installs them in build/npm/node_modules).
'use strict';
const fs = require('fs');
const addFormats = require('ajv-formats');

const [schemaPath, ...files] = process.argv.slice(2);
if (!schemaPath || files.length === 0) {
	console.error('usage: node validate-json.js SCHEMA FILE...');
	process.exit(2);
}
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
// the SARIF 2.1.0 schema is draft-04, which ajv 8 reads only through
// ajv-draft-04
const draft04 = /draft-04/.test(schema.$schema || '');
const Ajv = draft04 ? require('ajv-draft-04') : require('ajv');
// strict: false - published schemas use keywords ajv's strict mode flags
// unicodeRegExp: false - the SARIF schema's 'language' pattern is not a
// valid regular expression under the u flag (a stray ']')
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);
let bad = 0;
for (const f of files) {
	let doc;
	try {
		doc = JSON.parse(fs.readFileSync(f, 'utf8'));
	} catch (e) {
		console.log(`${f}: not JSON: ${e.message}`);
		bad++;
		continue;
	}
	if (validate(doc)) {
		console.log(`${f}: ok`);
	} else {
		bad++;
		for (const e of validate.errors)
			console.log(`${f}: ${e.instancePath || '/'} ${e.message}`);
	}
}
process.exit(bad ? 1 : 0);
