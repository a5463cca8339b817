// The workqueue dashboard's page: a card per queue with its figures, charts and actions, read
// every few seconds (format.js, charts.js, endpoint.js and lists.js come first). Data is only
// ever put in the page as text.
'use strict';

(() => {
	const { element, seconds, clock, count, estimate } = window.workqueueFormat;
	const { chart, draw } = window.workqueueCharts;
	const { read, write } = window.workqueueEndpoint;
	const body = document.body;
	const refreshMillis = Number(body.dataset.refreshMillis) || 2000;
	const historyMillis = Number(body.dataset.historyMillis) || 600000;
	// Without write access to the endpoint, the page offers no action that would be
	// refused.
	const writes = body.dataset.writes !== 'false';
	// More dead letters than this is trouble (workqueue.dashboard.dead-letter-threshold).
	const deadLetterThreshold = body.dataset.deadLetterThreshold ? Number(body.dataset.deadLetterThreshold) : Infinity;
	// workqueue.dashboard.wait-threshold: ready items that waited this long mark the queue.
	const waitThresholdSeconds = (Number(body.dataset.waitThresholdMillis) || 10000) / 1000;
	const main = document.getElementById('queues');
	const message = document.getElementById('message');
	const updated = document.getElementById('updated');
	const live = document.getElementById('live');
	const { leases, instances, deadLetters, searchDeadLetters } = window.workqueueLists(act, writes);

	const cards = new Map();
	const history = new Map();
	let since = 0;
	let timer = null;
	// When the page last read the endpoint: figures older than this are stale.
	let lastRead = null;

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

	// Where the page answers: the banner at its top, or an element beside a list. A
	// success clears after 10 s; an error at the first successful read after it, and the
	// refusal of a write no sooner than 10 s after it appeared, so that it can be read.
	const ANSWER_MILLIS = 10000;

	function show(text, kind, where = message) {
		clearTimeout(where.answerTimer);
		where.textContent = text;
		where.dataset.kind = kind;
		where.hidden = false;
		where.shownAt = Date.now();
		if (kind === 'ok') {
			where.answerTimer = setTimeout(() => {
				where.hidden = true;
			}, ANSWER_MILLIS);
		}
	}

	// A read succeeded: the errors it answers clear.
	function clearErrors() {
		for (const where of [message, ...document.querySelectorAll('[data-field="dead-letter-answer"]')]) {
			if (!where.hidden && where.dataset.kind !== 'ok'
				&& (where.dataset.kind === 'read-error' || Date.now() - where.shownAt >= ANSWER_MILLIS)) {
				where.hidden = true;
			}
		}
	}

	// Writes through the endpoint, then says how it went (where given) and reads again.
	async function act(queue, payload, done, where) {
		const refused = await write(queue, payload);
		if (refused) {
			show(refused, 'error', where);
			return;
		}
		show(done, 'ok', where);
		refresh();
	}

	function figure(group, label, field) {
		const value = element('dd', { 'data-field': field }, '–');
		group.append(element('div', {}, element('dt', {}, label), value));
	}

	// Takes a queued or waiting key out of the queue, after a confirmation.
	function removeForm(name) {
		const key = element('input', { type: 'text', class: 'search', placeholder: 'Key to remove',
			'aria-label': 'A queued or waiting key to remove', 'data-field': 'remove-key' });
		const button = element('button', { type: 'submit', 'data-action': 'remove',
			title: 'Take a queued or waiting key out of the queue' }, 'Remove');
		const form = element('form', { class: 'remove', 'data-field': 'remove-form' }, key, button);
		form.hidden = !writes;
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			const item = key.value.trim();
			if (item && window.confirm('Remove ' + item + ' from ' + name + '? It is taken out if queued or waiting; '
				+ 'if it is being processed, it is not queued again afterwards.')) {
				act(name, { action: 'remove', item }, 'Removed ' + item + ' from ' + name + '.');
				key.value = '';
			}
		});
		return form;
	}

	function card(name) {
		// Pause and resume act on this instance's workers only; other instances of a Redis
		// queue go on taking its items.
		const pause = element('button', { type: 'button', 'data-action': 'pause',
			title: 'Pause the workers of this instance (other instances go on)' }, 'Pause here');
		const resume = element('button', { type: 'button', 'data-action': 'resume', hidden: '',
			title: 'Resume the workers of this instance' }, 'Resume here');
		pause.addEventListener('click', () => act(name, { action: 'pause' },
			'Paused the workers of ' + name + ' on this instance.'));
		resume.addEventListener('click', () => act(name, { action: 'resume' },
			'Resumed the workers of ' + name + ' on this instance.'));
		// A Redis queue also pauses on every instance, a state kept in Redis.
		const pauseEverywhere = element('button', { type: 'button', 'data-action': 'pause-everywhere', hidden: '',
			title: 'No instance takes an item of this queue until it is resumed everywhere' }, 'Pause everywhere');
		const resumeEverywhere = element('button', { type: 'button', 'data-action': 'resume-everywhere', hidden: '',
			title: 'Every instance takes items of this queue again' }, 'Resume everywhere');
		pauseEverywhere.addEventListener('click', () => {
			if (window.confirm('Pause ' + name + ' on every instance? No instance takes its items until it is resumed.')) {
				act(name, { action: 'pause-everywhere' }, 'Paused ' + name + ' on every instance.');
			}
		});
		resumeEverywhere.addEventListener('click', () => act(name, { action: 'resume-everywhere' },
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
				chart('Depth, items', 'depth', DEPTH),
				chart('Oldest ready item, seconds since its add', 'oldest', OLDEST),
				chart('Adds, completions and retries, per second (this instance)', 'rates', RATES),
				chart('Queue wait, seconds, log scale (this instance)', 'latency', WAITS),
				chart('Work duration, seconds, log scale (this instance)', 'work', WORK)),
			element('details', { open: '', 'data-section': 'in-flight' }, element('summary', {}, 'In flight'),
				removeForm(name),
				element('div', { 'data-field': 'lease-list' })),
			element('details', { open: '', 'data-section': 'instances', hidden: '' }, element('summary', {}, 'Instances'),
				element('div', { 'data-field': 'instance-list' })),
			element('details', { open: '', 'data-section': 'dead-letters' }, element('summary', {}, 'Dead letters'),
				element('input', { type: 'search', class: 'search', placeholder: 'Search by key',
					'aria-label': 'Search the dead letters by key', 'data-field': 'dead-letter-search' }),
				element('p', { class: 'answer', 'data-field': 'dead-letter-answer', role: 'status', hidden: '' }),
				element('div', { 'data-field': 'dead-letter-list' })));
		const entry = { section, pause, resume, pauseEverywhere, resumeEverywhere, lastLeases: null, lastParked: null,
			trouble: 0, deadLetterOffset: 0, deadLetterSearch: '' };
		section.querySelector('[data-field="dead-letter-search"]').addEventListener('input',
			() => searchDeadLetters(name, entry));
		return entry;
	}

	function set(section, field, value) {
		const node = section.querySelector('[data-field="' + field + '"]');
		if (node.textContent !== value) {
			node.textContent = value;
		}
	}

	function render(queues, time) {
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
			update(name, entry, queues[name], time);
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

	function update(name, entry, queue, time) {
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
		const depthCaption = section.querySelector('[data-chart="depth"]').parentNode.querySelector('figcaption');
		const depthTitle = shared ? 'Depth, items (queue-wide on Redis)' : 'Depth, items';
		if (depthCaption.textContent !== depthTitle) {
			depthCaption.textContent = depthTitle;
		}
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
		draw(section.querySelector('[data-chart="depth"]'), withFigure(history.get(name), time,
			unreachable ? null : queue.depth), DEPTH, 'count');
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
		const problem = trouble(queue, history.get(name) || [], deadLettersGrowing(entry, queue.deadLetterCount));
		entry.trouble = problem ? 1 : 0;
		// An outage is named by the state badge already: the health badge only says trouble.
		// Dead letters kept are not health, but not "healthy" either: they need a look.
		const kept = queue.deadLetterCount > 0;
		set(section, 'health', problem === state ? 'trouble'
			: (problem || (kept ? count(queue.deadLetterCount) + ' dead letter' + (queue.deadLetterCount === 1 ? '' : 's')
				: 'healthy')));
		section.querySelector('[data-field="health"]').dataset.health = problem ? 'trouble' : (kept ? 'attention' : 'healthy');
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
	// Whether the queue's dead letters grew over the last few reads (about 10 seconds).
	function deadLettersGrowing(entry, deadLetters) {
		const seen = entry.deadLettersSeen || (entry.deadLettersSeen = []);
		seen.push(deadLetters || 0);
		if (seen.length > 6) {
			seen.shift();
		}
		return seen.length >= 2 && seen[seen.length - 1] > seen[0];
	}

	// Whether ready items waited past the wait threshold, by the last sample: the oldest
	// ready item (memory), or the recent p99 queue wait, an estimate whose bucket may be
	// open-ended ("> 10 s" counts from its lower end).
	function waitedTooLong(last, depth) {
		if (!last) {
			return null;
		}
		// The oldest ready item only while some are ready now: the sample may be older
		// than the depth read with the figures.
		if (depth > 0 && last.oldestReadySeconds !== null && last.oldestReadySeconds !== undefined
			&& last.oldestReadySeconds >= waitThresholdSeconds) {
			return 'oldest ready waited ' + seconds(last.oldestReadySeconds);
		}
		const p99 = last.queueLatencyP99;
		const known = (p99 !== null && typeof p99 === 'object')
			? Math.max(p99.value, p99.lower === null || p99.lower === undefined ? 0 : p99.lower) : p99;
		if (known !== null && known !== undefined && known >= waitThresholdSeconds) {
			return 'p99 wait ' + estimate(p99);
		}
		return null;
	}

	function trouble(queue, samples, deadLettersGrow) {
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
		if (deadLettersGrow) {
			return 'dead letters growing';
		}
		if (queue.deadLetterCount > deadLetterThreshold) {
			return 'over ' + count(deadLetterThreshold) + ' dead letters';
		}
		const paused = (shared && shared.pausedEverywhere) || (workers && workers.paused);
		if (paused && queue.depth > 0) {
			return 'paused with a backlog';
		}
		const waited = waitedTooLong(samples.length ? samples[samples.length - 1] : null, queue.depth);
		if (waited) {
			return waited;
		}
		const depths = samples.slice(-6).map((sample) => sample.depth).filter((depth) => depth !== null && depth !== undefined);
		if (depths.length >= 3 && depths[depths.length - 1] > 0
			&& depths.every((depth, i) => i === 0 || depth >= depths[i - 1])
			&& depths[depths.length - 1] > depths[0]) {
			return 'backlog growing';
		}
		return null;
	}

	// The depth chart ends at the figure read now, so that the two always agree; a
	// figure that could not be read ends it with a gap.
	function withFigure(samples, time, depth) {
		if (!time || (samples.length && samples[samples.length - 1].time >= time)) {
			return samples;
		}
		return samples.concat([{ time, depth: depth === undefined ? null : depth }]);
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

	// Every card's figures are as of the last read that answered, and its state and
	// health are not known: no badge stays green for an application that does not answer.
	function staleAll() {
		const why = lastRead === null ? 'no answer yet' : 'no answer since ' + clock(lastRead);
		for (const entry of cards.values()) {
			markStale(entry.section, why);
			const state = entry.section.querySelector('[data-field="state"]');
			state.textContent = 'no answer';
			state.dataset.state = 'unreachable';
			const health = entry.section.querySelector('[data-field="health"]');
			health.textContent = 'unknown';
			health.dataset.health = 'unknown';
			entry.section.dataset.health = 'unknown';
		}
		updated.textContent = why;
	}

	async function refresh() {
		clearTimeout(timer);
		try {
			const answer = await read('', '?since=' + since);
			render(answer.queues, answer.time);
			lastRead = Date.now();
			updated.textContent = 'updated ' + clock(lastRead);
			clearErrors();
		}
		catch (error) {
			show(error.message, 'read-error');
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
