// The dashboard's talk with the workqueues Actuator endpoint: reads GET <endpoint>[/<queue>]?...
// and writes POST <endpoint>/<queue> {"action": ...}, with the endpoint's exposure, access
// rules and security (the XSRF cookie is sent back when there is one). Every call gives up
// after FETCH_TIMEOUT_MILLIS, and every refusal is put in words that say what to change.
'use strict';

(() => {
	const endpoint = document.body.dataset.endpoint;
	const FETCH_TIMEOUT_MILLIS = 5000;

	// A fetch that gives up after FETCH_TIMEOUT_MILLIS, so that a stuck application never
	// freezes the page.
	function timedFetch(url, options) {
		const controller = new AbortController();
		const timeout = setTimeout(() => controller.abort(), FETCH_TIMEOUT_MILLIS);
		return fetch(url, { ...options, signal: controller.signal })
			.catch((error) => {
				throw (error.name === 'AbortError')
					? new Error('no answer within ' + FETCH_TIMEOUT_MILLIS / 1000 + ' s') : error;
			})
			.finally(() => clearTimeout(timeout));
	}

	function readError(status) {
		if (status === 404) {
			return 'The workqueues endpoint is not there (HTTP 404): add workqueues to '
				+ 'management.endpoints.web.exposure.include.';
		}
		if (status === 401 || status === 403) {
			return 'Not allowed to read the workqueues endpoint (HTTP ' + status + '): sign in with the access it requires.';
		}
		return 'The workqueues endpoint answered HTTP ' + status + '.';
	}

	function writeError(status, detail) {
		if (status === 405 || status === 404) {
			return 'Refused (HTTP ' + status + '): this application does not allow writes to the workqueues endpoint '
				+ '(management.endpoint.workqueues.access is read-only or none).';
		}
		if (status === 401 || status === 403) {
			return 'Refused (HTTP ' + status + '): you lack the access the workqueues endpoint requires for writes.';
		}
		return 'Refused (HTTP ' + status + ')' + (detail ? ': ' + detail : '.');
	}

	function cookie(name) {
		const match = document.cookie.split('; ').find((entry) => entry.startsWith(name + '='));
		return match ? decodeURIComponent(match.substring(name.length + 1)) : null;
	}

	// Reads the endpoint, or one queue's page of it: path is '' or '/<queue>', query
	// '?since=...' or '?offset=...'. Throws an Error whose message is the whole explanation.
	async function read(path, query) {
		let response;
		try {
			response = await timedFetch(endpoint + path + query,
				{ headers: { Accept: 'application/json' }, credentials: 'same-origin' });
		}
		catch (error) {
			throw new Error('Could not reach the application: ' + error.message);
		}
		if (!response.ok) {
			throw new Error(readError(response.status));
		}
		return response.json();
	}

	// Asks the endpoint to act on a queue; answers null when done, else why it was not.
	async function write(queue, payload) {
		const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
		const token = cookie('XSRF-TOKEN');
		if (token) {
			headers['X-XSRF-TOKEN'] = token;
		}
		let response;
		try {
			response = await timedFetch(endpoint + '/' + encodeURIComponent(queue),
				{ method: 'POST', headers, body: JSON.stringify(payload), credentials: 'same-origin' });
		}
		catch (error) {
			return 'Could not reach the application: ' + error.message;
		}
		if (response.ok) {
			return null;
		}
		let detail = '';
		try {
			const problem = await response.json();
			detail = problem.error || problem.message || '';
		}
		catch (ignored) {
			// No JSON body: the status says it all.
		}
		return writeError(response.status, detail);
	}

	window.workqueueEndpoint = { read, write };
})();
