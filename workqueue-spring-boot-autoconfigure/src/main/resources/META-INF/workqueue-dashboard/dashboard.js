// The workqueue dashboard's cards, reads and writes (format.js and charts.js come first). It reads GET <endpoint>?since=<millis> and writes
// POST <endpoint>/<queue> {"action": ...}: the workqueues Actuator endpoint, with its
// exposure, access rules and security. Data is only ever put in the page as text.
'use strict';

(() => {
	const { element, svgElement, seconds, perSecond, clock, count, table } = window.workqueueFormat;
	const { chart, draw } = window.workqueueCharts;
	const body = document.body;
	const endpoint = body.dataset.endpoint;
	const refreshMillis = Number(body.dataset.refreshMillis) || 2000;
	const historyMillis = Number(body.dataset.historyMillis) || 600000;
	// Without write access to the endpoint, the page offers no action that would be
	// refused.
	const writes = body.dataset.writes !== 'false';
	const main = document.getElementById('queues');
	const message = document.getElementById('message');
	const updated = document.getElementById('updated');
	const live = document.getElementById('live');

	const cards = new Map();
	const history = new Map();
	let since = 0;
	let timer = null;
	let readFailed = false;
	// When the page last read the endpoint: figures older than this are stale.
	let lastRead = null;
	const FETCH_TIMEOUT_MILLIS = 5000;

	const RATES = [
		{ key: 'addsPerSecond', label: 'adds/s', color: '#2563eb' },
		{ key: 'completionsPerSecond', label: 'completions/s', color: '#059669' },
		{ key: 'retriesPerSecond', label: 'retries/s', color: '#d97706' },
	];
	const WAITS = [
		{ key: 'queueLatencyP50', label: 'p50', color: '#7c3aed' },
		{ key: 'queueLatencyP99', label: 'p99', color: '#c026d3' },
	];
	const WORK = [
		{ key: 'workDurationP50', label: 'p50', color: '#0891b2' },
		{ key: 'workDurationP99', label: 'p99', color: '#dc2626' },
	];
	const DEPTH = [
		{ key: 'depth', label: 'depth', color: '#1d4ed8' },
	];
	const OLDEST = [
		{ key: 'oldestReadySeconds', label: 'oldest ready', color: '#b45309' },
	];
	// The dead letters listed at a time; older ones are paged.
	const DEAD_LETTERS_PAGE = 100;

	function show(text, kind) {
		message.textContent = text;
		message.dataset.kind = kind;
		message.hidden = false;
	}

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

	async function write(queue, payload, done) {
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
			show('Could not reach the application: ' + error.message, 'error');
			return;
		}
		if (!response.ok) {
			let detail = '';
			try {
				const problem = await response.json();
				detail = problem.error || problem.message || '';
			}
			catch (ignored) {
				// No JSON body: the status says it all.
			}
			show(writeError(response.status, detail), 'error');
			return;
		}
		show(done, 'ok');
		refresh();
	}

	function figure(group, label, field) {
		const value = element('dd', { 'data-field': field }, '–');
		group.append(element('div', {}, element('dt', {}, label), value));
	}

	function card(name) {
		// Pause and resume act on this instance's workers only; other instances of a Redis
		// queue go on taking its items.
		const pause = element('button', { type: 'button', 'data-action': 'pause',
			title: 'Pause the workers of this instance (other instances go on)' }, 'Pause here');
		const resume = element('button', { type: 'button', 'data-action': 'resume', hidden: '',
			title: 'Resume the workers of this instance' }, 'Resume here');
		pause.addEventListener('click', () => write(name, { action: 'pause' },
			'Paused the workers of ' + name + ' on this instance.'));
		resume.addEventListener('click', () => write(name, { action: 'resume' },
			'Resumed the workers of ' + name + ' on this instance.'));
		// A Redis queue also pauses on every instance, a state kept in Redis.
		const pauseEverywhere = element('button', { type: 'button', 'data-action': 'pause-everywhere', hidden: '',
			title: 'No instance takes an item of this queue until it is resumed everywhere' }, 'Pause everywhere');
		const resumeEverywhere = element('button', { type: 'button', 'data-action': 'resume-everywhere', hidden: '',
			title: 'Every instance takes items of this queue again' }, 'Resume everywhere');
		pauseEverywhere.addEventListener('click', () => {
			if (window.confirm('Pause ' + name + ' on every instance? No instance takes its items until it is resumed.')) {
				write(name, { action: 'pause-everywhere' }, 'Paused ' + name + ' on every instance.');
			}
		});
		resumeEverywhere.addEventListener('click', () => write(name, { action: 'resume-everywhere' },
			'Resumed ' + name + ' on every instance.'));
		const queueWide = element('dl');
		['Depth', 'Oldest ready', 'Waiting', 'In flight', 'Dead letters', 'Redelivered'].forEach((label, i) =>
			figure(queueWide, label, ['depth', 'oldestReady', 'waiting', 'inFlight', 'deadLetters', 'redeliveries'][i]));
		const here = element('dl');
		['Workers', 'Processing', 'Longest', 'Adds', 'Retries', 'Given up'].forEach((label, i) => figure(here, label,
			['workers', 'processing', 'longest', 'adds', 'retries', 'givenUp'][i]));
		const section = element('section', { class: 'queue', 'data-queue': name },
			element('header', {}, element('h2', {}, name), element('span', { class: 'badge', 'data-field': 'backend' }),
				element('span', { class: 'badge', 'data-field': 'state' }),
				element('span', { class: 'badge', 'data-field': 'health' }),
				element('span', { class: 'muted', 'data-field': 'paused-by' }),
				element('span', { class: 'stale-note', 'data-field': 'stale' }),
				element('div', { class: 'actions' }, pause, resume, pauseEverywhere, resumeEverywhere)),
			element('div', { class: 'figures' },
				element('div', { class: 'group' }, element('h3', { 'data-field': 'wide-title' }, 'Queue'), queueWide),
				element('div', { class: 'group' }, element('h3', { 'data-field': 'here-title' }, 'This instance'), here)),
			element('div', { class: 'priorities', 'data-field': 'priorities' }),
			element('div', { class: 'priorities', 'data-field': 'informer' }),
			element('div', { class: 'charts' },
				chart('Depth, items (queue-wide on Redis)', 'depth', DEPTH),
				chart('Oldest ready item, seconds since its add', 'oldest', OLDEST),
				chart('Adds, completions and retries, per second (this instance)', 'rates', RATES),
				chart('Queue wait, seconds, log scale (this instance)', 'latency', WAITS),
				chart('Work duration, seconds, log scale (this instance)', 'work', WORK)),
			element('details', { open: '', 'data-section': 'in-flight' }, element('summary', {}, 'In flight'),
				element('div', { 'data-field': 'lease-list' })),
			element('details', { open: '', 'data-section': 'instances', hidden: '' }, element('summary', {}, 'Instances'),
				element('div', { 'data-field': 'instance-list' })),
			element('details', { open: '', 'data-section': 'dead-letters' }, element('summary', {}, 'Dead letters'),
				element('input', { type: 'search', class: 'search', placeholder: 'Search by key',
					'aria-label': 'Search the dead letters by key', 'data-field': 'dead-letter-search' }),
				element('div', { 'data-field': 'dead-letter-list' })));
		section.querySelector('[data-field="dead-letter-search"]').addEventListener('input', () => filterDeadLetters(section));
		return { section, pause, resume, pauseEverywhere, resumeEverywhere, lastLeases: null, lastParked: null,
			trouble: 0, deadLetterOffset: 0 };
	}

	function set(section, field, value) {
		const node = section.querySelector('[data-field="' + field + '"]');
		if (node.textContent !== value) {
			node.textContent = value;
		}
	}

	function render(queues) {
		const names = Object.keys(queues);
		for (const [name, entry] of cards) {
			if (!(name in queues)) {
				entry.section.remove();
				cards.delete(name);
			}
		}
		for (const name of names) {
			let entry = cards.get(name);
			if (!entry) {
				entry = card(name);
				cards.set(name, entry);
			}
			update(name, entry, queues[name]);
		}
		// Trouble first, then by name.
		const ordered = [...names].sort((a, b) => (cards.get(b).trouble - cards.get(a).trouble) || a.localeCompare(b));
		ordered.forEach((name, index) => {
			const section = cards.get(name).section;
			if (main.children[index] !== section) {
				main.insertBefore(section, main.children[index] || null);
			}
		});
		if (names.length === 0) {
			main.replaceChildren(element('p', { class: 'empty' }, 'This application declares no queues.'));
		}
		else if (main.firstChild && main.firstChild.tagName === 'P') {
			main.firstChild.remove();
		}
	}

	// Greys a card's figures and disables its actions while they cannot be trusted.
	function markStale(section, why) {
		section.classList.toggle('stale', why !== null);
		set(section, 'stale', why || '');
		section.querySelectorAll('button').forEach((button) => {
			button.disabled = why !== null;
		});
	}

	function update(name, entry, queue) {
		const section = entry.section;
		const shared = queue.shared;
		const workers = queue.workers;
		set(section, 'backend', shared ? 'redis' + (shared.shards > 1 ? ' · ' + shared.shards + ' shards' : '') : 'memory');
		const unreachable = shared && shared.unreachable;
		const everywhere = shared && shared.pausedEverywhere;
		const state = unreachable ? 'Redis unreachable' : queue.shuttingDown ? 'shutting down'
			: everywhere ? 'paused everywhere' : (workers && workers.paused ? 'paused here' : 'running');
		set(section, 'state', workers || queue.shuttingDown || unreachable || everywhere ? state : 'no workers');
		section.querySelector('[data-field="state"]').dataset.state = unreachable ? 'unreachable' : state;
		set(section, 'paused-by', everywhere ? 'by ' + everywhere.by + ' since ' + clock(everywhere.sinceMillis) : '');
		entry.pauseEverywhere.hidden = !writes || !shared || Boolean(everywhere);
		entry.resumeEverywhere.hidden = !writes || !shared || !everywhere;
		entry.pause.hidden = !writes || !workers || workers.paused;
		entry.resume.hidden = !writes || !workers || !workers.paused;
		set(section, 'wide-title', shared ? 'Queue-wide (Redis)' : 'Queue');
		set(section, 'here-title', shared ? 'This instance (' + shared.instance + ')' : 'This instance');
		set(section, 'depth', count(queue.depth));
		// Redis keeps no add time per item: only in-memory queues know their oldest.
		const samples = queue.recent || [];
		const oldest = samples.length ? samples[samples.length - 1].oldestReadySeconds : null;
		set(section, 'oldestReady', shared ? 'not kept on Redis' : seconds(oldest));
		section.querySelector('[data-chart="oldest"]').parentNode.hidden = Boolean(shared);
		set(section, 'waiting', count(queue.waiting));
		set(section, 'inFlight', count(shared ? shared.inFlight : (workers ? workers.processing : null)));
		set(section, 'deadLetters', count(queue.deadLetterCount));
		set(section, 'redeliveries', shared ? count(shared.redeliveries) : '–');
		set(section, 'workers', workers ? workers.live + ' of ' + workers.configured : '–');
		set(section, 'processing', workers ? count(workers.processing) : '–');
		set(section, 'longest', workers && workers.processing > 0 ? seconds(workers.longestRunningSeconds) : '–');
		set(section, 'adds', count(queue.adds));
		set(section, 'retries', count(queue.retries));
		set(section, 'givenUp', workers ? count(workers.outcomes.givenUp) : '–');
		const priorities = Object.entries(queue.depthByPriority || {});
		set(section, 'priorities', priorities.length > 1 || (priorities.length === 1 && priorities[0][0] !== '0')
			? 'Depth by priority: ' + priorities.map(([priority, depth]) => priority + ' → ' + depth).join(', ') : '');
		set(section, 'informer', informer(queue.details && queue.details.informer));
		remember(name, queue.recent || []);
		draw(section.querySelector('[data-chart="depth"]'), history.get(name), DEPTH, 'count');
		if (!shared) {
			draw(section.querySelector('[data-chart="oldest"]'), history.get(name), OLDEST, 'age');
		}
		draw(section.querySelector('[data-chart="rates"]'), history.get(name), RATES, 'rate');
		draw(section.querySelector('[data-chart="latency"]'), history.get(name), WAITS, 'seconds');
		draw(section.querySelector('[data-chart="work"]'), history.get(name), WORK, 'seconds');
		leases(name, entry, queue);
		instances(entry, shared);
		deadLetters(name, entry, queue);
		markStale(section, unreachable ? unreachable + ': queue-wide figures stale since '
			+ clock(shared.unreachableSinceMillis) : null);
		const problem = trouble(queue, history.get(name) || []);
		entry.trouble = problem ? 1 : 0;
		// An outage is named by the state badge already: the health badge only says trouble.
		set(section, 'health', problem === state ? 'trouble' : (problem || 'healthy'));
		section.querySelector('[data-field="health"]').dataset.health = problem ? 'trouble' : 'healthy';
		section.dataset.health = problem ? 'trouble' : 'healthy';
	}

	// A Kubernetes informer that feeds the queue, in one line, or nothing.
	function informer(feeding) {
		if (!feeding) {
			return '';
		}
		return 'Informer: ' + feeding.resource + ' · ' + (feeding.synced ? 'synced' : 'not synced yet')
			+ (feeding.watching ? '' : ' · watch restarting') + ' · ' + count(feeding.cachedObjects) + ' cached'
			+ (feeding.lastEventMillis ? ' · last event ' + clock(feeding.lastEventMillis) : '')
			+ (feeding.leading ? '' : ' · standing by (not leading)');
	}

	// What is wrong with a queue, from its figures and its recent depth, or null.
	function trouble(queue, samples) {
		const shared = queue.shared;
		const workers = queue.workers;
		if (shared && shared.unreachable) {
			return 'Redis unreachable';
		}
		if (workers && workers.live < workers.configured) {
			return 'workers dead';
		}
		// Past workqueue.health.stuck-threshold, as the health check counts it.
		if (workers && workers.stuckAfterSeconds !== null && workers.stuckAfterSeconds !== undefined
			&& workers.processing > 0 && workers.longestRunningSeconds >= workers.stuckAfterSeconds) {
			return 'stuck item';
		}
		const paused = (shared && shared.pausedEverywhere) || (workers && workers.paused);
		if (paused && queue.depth > 0) {
			return 'paused with a backlog';
		}
		const depths = samples.slice(-6).map((sample) => sample.depth).filter((depth) => depth !== null && depth !== undefined);
		if (depths.length >= 3 && depths[depths.length - 1] > 0
			&& depths.every((depth, i) => i === 0 || depth >= depths[i - 1])
			&& depths[depths.length - 1] > depths[0]) {
			return 'backlog growing';
		}
		return null;
	}

	function remember(name, samples) {
		const kept = history.get(name) || [];
		for (const sample of samples) {
			if (kept.length === 0 || sample.time > kept[kept.length - 1].time) {
				kept.push(sample);
			}
			since = Math.max(since, sample.time);
		}
		const oldest = since - historyMillis;
		while (kept.length > 0 && kept[0].time <= oldest) {
			kept.shift();
		}
		history.set(name, kept);
	}

	function leases(name, entry, queue) {
		const target = entry.section.querySelector('[data-field="lease-list"]');
		const summary = entry.section.querySelector('[data-section="in-flight"] summary');
		const shared = queue.shared;
		if (!shared) {
			const workers = queue.workers;
			const items = workers ? workers.items || [] : [];
			summary.textContent = 'In flight (' + (workers ? workers.processing : 0) + ')';
			const key = JSON.stringify(items.map((item) => [item.item, Math.round(item.ageSeconds)]));
			if (key === entry.lastLeases) {
				return;
			}
			entry.lastLeases = key;
			target.replaceChildren(items.length === 0 ? element('p', { class: 'empty' }, 'Nothing is being processed.')
				: table(['Item', 'Processing for'], items.map((item) =>
					element('tr', { 'data-item': item.item }, element('td', { class: 'item' }, item.item),
						element('td', { class: 'num' }, seconds(item.ageSeconds))))));
			return;
		}
		const sorted = [...shared.leases].sort((a, b) => b.leaseAgeSeconds - a.leaseAgeSeconds);
		const key = JSON.stringify(sorted.map((lease) => [lease.item, lease.holder, Math.round(lease.leaseAgeSeconds)]));
		summary.textContent = 'In flight (' + sorted.length + ', all instances)';
		if (key === entry.lastLeases) {
			return;
		}
		entry.lastLeases = key;
		if (sorted.length === 0) {
			target.replaceChildren(element('p', { class: 'empty' }, 'No item is under a lease.'));
			return;
		}
		target.replaceChildren(table(['Item', 'Holder', 'Lease age', 'Expires'], sorted.map((lease) =>
			element('tr', { 'data-item': lease.item, class: lease.expiresInSeconds < 0 ? 'expired' : '' },
				element('td', { class: 'item' }, lease.item),
				element('td', {}, lease.holder + (lease.holder === shared.instance ? ' (this instance)'
					: (notSeen(shared, lease.holder) ? ' (not seen for ' + (notSeen(shared, lease.holder).lastSeenSecondsAgo
						? seconds(notSeen(shared, lease.holder).lastSeenSecondsAgo) : 'a while') + ')' : ''))),
				element('td', { class: 'num' }, seconds(lease.leaseAgeSeconds)),
				element('td', { class: 'num' }, lease.expiresInSeconds < 0
					? 'expired ' + seconds(-lease.expiresInSeconds) + ' ago, awaiting redelivery (holder not renewing)'
					: 'in ' + seconds(lease.expiresInSeconds))))));
	}

	// An instance not seen for this long (it writes a heartbeat a second) is likely gone.
	const NOT_SEEN_SECONDS = 5;

	function notSeen(shared, holder) {
		const instance = (shared.instances || []).find((candidate) => candidate.holder === holder);
		return !instance || instance.lastSeenSecondsAgo > NOT_SEEN_SECONDS ? instance || {} : null;
	}

	function instances(entry, shared) {
		const details = entry.section.querySelector('[data-section="instances"]');
		details.hidden = !shared;
		if (!shared) {
			return;
		}
		const list = shared.instances || [];
		details.querySelector('summary').textContent = 'Instances (' + list.length + ')';
		entry.section.querySelector('[data-field="instance-list"]').replaceChildren(list.length === 0
			? element('p', { class: 'empty' }, 'No instance has reported yet.')
			: table(['Instance', 'In flight', 'Waiting in get', 'Leased ahead', 'Last seen'], list.map((instance) =>
				element('tr', { 'data-instance': instance.holder,
					class: instance.lastSeenSecondsAgo > NOT_SEEN_SECONDS ? 'expired' : '' },
				element('td', { class: 'item' }, instance.holder + (instance.holder === shared.instance ? ' (this instance)' : '')),
				element('td', { class: 'num' }, count(instance.inFlight)),
				element('td', { class: 'num' }, count(instance.waitingInGet)),
				element('td', { class: 'num' }, count(instance.leasedAhead)),
				element('td', { class: 'num' }, seconds(Math.max(0, instance.lastSeenSecondsAgo)) + ' ago'
					+ (instance.lastSeenSecondsAgo > NOT_SEEN_SECONDS ? ' (not seen: stopped or cut off?)' : ''))))));
	}

	// The items that left without success: given up by the workers, and on Redis parked.
	// The first page of dead letters comes with every read; an older page is read on its
	// own while it is shown.
	function deadLetters(name, entry, queue) {
		if (entry.deadLetterOffset > 0) {
			deadLetterPage(name, entry, entry.deadLetterOffset);
		}
		else {
			showDeadLetters(name, entry, queue);
		}
	}

	async function deadLetterPage(name, entry, offset) {
		try {
			const response = await timedFetch(endpoint + '/' + encodeURIComponent(name) + '?offset=' + offset,
				{ headers: { Accept: 'application/json' }, credentials: 'same-origin' });
			if (response.ok && entry.deadLetterOffset === offset) {
				showDeadLetters(name, entry, await response.json());
			}
		}
		catch (error) {
			// The next refresh reads it again.
		}
	}

	function pager(name, entry, queue, listed) {
		const offset = queue.deadLettersOffset || 0;
		const total = queue.deadLetterCount || 0;
		const newer = element('button', { type: 'button', 'data-action': 'newer-dead-letters' }, 'Newer');
		const older = element('button', { type: 'button', 'data-action': 'older-dead-letters' }, 'Older');
		newer.disabled = offset === 0;
		older.disabled = offset + listed >= total;
		const turn = (to) => {
			entry.deadLetterOffset = Math.max(0, to);
			entry.lastParked = null;
			deadLetterPage(name, entry, entry.deadLetterOffset);
		};
		newer.addEventListener('click', () => turn(offset - DEAD_LETTERS_PAGE));
		older.addEventListener('click', () => turn(offset + DEAD_LETTERS_PAGE));
		return element('div', { class: 'pager', 'data-field': 'dead-letter-pager' },
			(listed ? (offset + 1) + '–' + (offset + listed) : '0') + ' of ' + count(total) + ' ', newer, ' ', older);
	}

	function showDeadLetters(name, entry, queue) {
		const target = entry.section.querySelector('[data-field="dead-letter-list"]');
		const summary = entry.section.querySelector('[data-section="dead-letters"] summary');
		const letters = queue.deadLetters || [];
		summary.textContent = 'Dead letters (' + count(queue.deadLetterCount) + ')';
		const key = JSON.stringify([queue.deadLettersOffset, queue.deadLetterCount, letters]);
		if (key === entry.lastParked) {
			return;
		}
		entry.lastParked = key;
		if (letters.length === 0 && !queue.deadLettersOffset) {
			target.replaceChildren(element('p', { class: 'empty' },
				'No dead letter: nothing was given up' + (queue.shared ? ' or parked.' : '.')));
			return;
		}
		const headings = ['Item', 'Why', 'Attempts', 'Last error', 'When'];
		const rows = letters.map((letter) => {
			const cells = [element('td', { class: 'item' }, letter.item), element('td', {}, letter.reason),
				element('td', { class: 'num' }, letter.attempts > 0 ? String(letter.attempts) : '–'),
				element('td', { class: 'error' }, letter.lastError || '–'),
				element('td', { class: 'num' }, letter.atMillis ? clock(letter.atMillis) : '–')];
			if (writes) {
				const requeue = element('button', { type: 'button', 'data-action': 'requeue-dead-letter' }, 'Requeue');
				const drop = element('button', { type: 'button', class: 'danger', 'data-action': 'drop-dead-letter' }, 'Drop');
				requeue.addEventListener('click', () => write(name, { action: 'requeue-dead-letter', item: letter.item },
					'Requeued ' + letter.item + ' in ' + name + '.'));
				drop.addEventListener('click', () => {
					if (window.confirm('Drop the dead letter ' + letter.item + ' of ' + name + ' for good?')) {
						write(name, { action: 'drop-dead-letter', item: letter.item },
							'Dropped ' + letter.item + ' from ' + name + '.');
					}
				});
				cells.push(element('td', {}, requeue, ' ', drop));
			}
			return element('tr', { 'data-item': letter.item }, ...cells);
		});
		const parts = [table(writes ? [...headings, ''] : headings, rows)];
		if (queue.deadLetterCount > letters.length || queue.deadLettersOffset > 0) {
			parts.push(pager(name, entry, queue, letters.length));
		}
		// "*" acts on the first page (the newest), so the bulk actions are offered there.
		if (writes && !queue.deadLettersOffset) {
			const requeueAll = element('button', { type: 'button', 'data-action': 'requeue-all-dead-letters' },
				'Requeue all listed');
			const dropAll = element('button', { type: 'button', class: 'danger', 'data-action': 'drop-all-dead-letters' },
				'Drop all listed');
			requeueAll.addEventListener('click', () => write(name, { action: 'requeue-dead-letter', item: '*' },
				'Requeued the dead letters of ' + name + '.'));
			dropAll.addEventListener('click', () => {
				if (window.confirm('Drop every listed dead letter of ' + name + ' for good?')) {
					write(name, { action: 'drop-dead-letter', item: '*' }, 'Dropped the dead letters of ' + name + '.');
				}
			});
			parts.push(element('div', { class: 'bulk' }, requeueAll, ' ', dropAll));
		}
		target.replaceChildren(...parts);
		filterDeadLetters(entry.section);
	}

	// Shows the listed dead letters whose key contains the search, ignoring case.
	function filterDeadLetters(section) {
		const wanted = section.querySelector('[data-field="dead-letter-search"]').value.trim().toLowerCase();
		section.querySelectorAll('[data-field="dead-letter-list"] tr[data-item]').forEach((row) => {
			row.hidden = wanted !== '' && !row.dataset.item.toLowerCase().includes(wanted);
		});
	}

	// Every card's figures are as of the last read that answered.
	function staleAll() {
		const why = lastRead === null ? 'not read yet' : 'stale since ' + clock(lastRead);
		for (const entry of cards.values()) {
			markStale(entry.section, why);
		}
		updated.textContent = why;
	}

	async function refresh() {
		clearTimeout(timer);
		try {
			const response = await timedFetch(endpoint + '?since=' + since,
				{ headers: { Accept: 'application/json' }, credentials: 'same-origin' });
			if (!response.ok) {
				show(readError(response.status), 'error');
				readFailed = true;
				staleAll();
			}
			else {
				render((await response.json()).queues);
				lastRead = Date.now();
				updated.textContent = 'updated ' + clock(lastRead);
				if (readFailed) {
					message.hidden = true;
					readFailed = false;
				}
			}
		}
		catch (error) {
			show('Could not reach the application: ' + error.message, 'error');
			readFailed = true;
			staleAll();
		}
		if (live.checked) {
			timer = setTimeout(refresh, refreshMillis);
		}
	}

	document.getElementById('read-only').hidden = writes;

	live.addEventListener('change', () => {
		if (live.checked) {
			refresh();
		}
		else {
			clearTimeout(timer);
		}
	});
	refresh();
})();
