// The dashboard's lists in a queue's card: the items in flight (this instance's workers, or
// every instance's leases on Redis), the instances sharing a Redis queue, and the dead letters,
// paged, searched by the server, each with its requeue and drop when the page may write.
'use strict';

(() => {
	const { element, key: keyText, seconds, clock, count, table } = window.workqueueFormat;
	const { read } = window.workqueueEndpoint;
	// The dead letters listed at a time; older ones are paged.
	const DEAD_LETTERS_PAGE = 100;

	// act(queue, payload, doneText, where) writes through the endpoint and says how it went
	// (where, if given, is the element beside the list that answers); writes says whether
	// the page offers actions at all.
	function lists(act, writes) {
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
					: table(['Item', 'Processing for', ''], items.map((item) =>
						element('tr', { 'data-item': item.item }, element('td', { class: 'item' }, keyText(item.item)),
							element('td', { class: 'num' }, seconds(item.ageSeconds)), removeCell(name, item.item)))));
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
			target.replaceChildren(table(['Item', 'Holder', 'Lease age', 'Expires', ''], sorted.map((lease) =>
				element('tr', { 'data-item': lease.item, class: lease.expiresInSeconds < 0 ? 'expired' : '' },
					element('td', { class: 'item' }, keyText(lease.item)),
					element('td', {}, lease.holder + (lease.holder === shared.instance ? ' (this instance)'
						: (notSeen(shared, lease.holder) ? ' (not seen for ' + (notSeen(shared, lease.holder).lastSeenSecondsAgo
							? seconds(notSeen(shared, lease.holder).lastSeenSecondsAgo) : 'a while') + ')' : ''))),
					element('td', { class: 'num' }, seconds(lease.leaseAgeSeconds)),
					element('td', { class: 'num' }, lease.expiresInSeconds < 0
						? 'expired ' + seconds(-lease.expiresInSeconds) + ' ago, awaiting redelivery (holder not renewing)'
						: 'in ' + seconds(lease.expiresInSeconds)), removeCell(name, lease.item)))));
		}

		// A key being processed finishes; remove keeps it from running again afterwards.
		function removeCell(name, item) {
			if (!writes) {
				return element('td');
			}
			const button = element('button', { type: 'button', 'data-action': 'remove',
				title: 'It finishes this run, but is not queued again afterwards' }, 'Remove');
			button.addEventListener('click', () => {
				if (window.confirm('Remove ' + item + ' from ' + name + '? This run finishes; a re-add pending '
					+ 'for it is dropped, so it does not run again.')) {
					act(name, { action: 'remove', item }, 'Removed ' + item + ' from ' + name
						+ ': it will not run again after this run.');
				}
			});
			return element('td', {}, button);
		}

		// An instance the endpoint says was not seen lately (its heartbeat is a second apart) is likely gone.
		function notSeen(shared, holder) {
			const instance = (shared.instances || []).find((candidate) => candidate.holder === holder);
			return !instance || instance.notSeen ? instance || {} : null;
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
				: table(['Instance', 'Workers', 'In flight', 'Waiting in get', 'Leased ahead', 'Last seen'], list.map((instance) =>
					element('tr', { 'data-instance': instance.holder,
						class: instance.notSeen ? 'expired' : '' },
					element('td', { class: 'item' }, keyText(instance.holder), instance.holder === shared.instance ? ' (this instance)' : ''),
					element('td', { 'data-field': 'instance-workers' }, shared.pausedEverywhere ? 'paused everywhere'
						: (instance.paused ? 'paused' : 'taking')),
					element('td', { class: 'num' }, count(instance.inFlight)),
					element('td', { class: 'num' }, count(instance.waitingInGet)),
					element('td', { class: 'num' }, count(instance.leasedAhead)),
					element('td', { class: 'num' }, seconds(Math.max(0, instance.lastSeenSecondsAgo)) + ' ago'
						+ (instance.notSeen ? ' (not seen: stopped or cut off?)' : ''))))));
		}

		// The items that left without success: given up by the workers, and on Redis parked.
		// The first page of dead letters comes with every read; an older page, or a search
		// (made by the server, over every dead letter it keeps), is read on its own while it
		// is shown.
		function deadLetters(name, entry, queue) {
			if (entry.deadLetterOffset > 0 || entry.deadLetterSearch) {
				deadLetterPage(name, entry, entry.deadLetterOffset);
			}
			else {
				showDeadLetters(name, entry, queue);
			}
		}

		async function deadLetterPage(name, entry, offset) {
			const search = entry.deadLetterSearch;
			try {
				const page = await read('/' + encodeURIComponent(name), '?offset=' + offset
					+ (search ? '&search=' + encodeURIComponent(search) : ''));
				if (entry.deadLetterOffset === offset && entry.deadLetterSearch === search) {
					showDeadLetters(name, entry, page);
				}
			}
			catch (error) {
				// The next refresh reads it again.
			}
		}

		// A new search starts at the newest page; typing waits a moment before it asks.
		function searchDeadLetters(name, entry) {
			clearTimeout(entry.searchTimer);
			entry.searchTimer = setTimeout(() => {
				entry.deadLetterSearch = entry.section.querySelector('[data-field="dead-letter-search"]').value.trim();
				entry.deadLetterOffset = 0;
				entry.lastParked = null;
				deadLetterPage(name, entry, 0);
			}, 250);
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
			// The answer to an action on the list shows beside it, not at the page's top.
			const answer = entry.section.querySelector('[data-field="dead-letter-answer"]');
			const letters = queue.deadLetters || [];
			const search = entry.deadLetterSearch || '';
			summary.textContent = 'Dead letters (' + count(queue.deadLetterCount)
				+ (search ? ' matching “' + search + '”' : '') + ')';
			const key = JSON.stringify([search, queue.deadLettersOffset, queue.deadLetterCount, letters]);
			if (key === entry.lastParked) {
				return;
			}
			entry.lastParked = key;
			if (letters.length === 0 && !queue.deadLettersOffset) {
				target.replaceChildren(element('p', { class: 'empty', 'data-field': 'dead-letter-empty' }, search
					? 'No dead letter matches “' + search + '”.'
					: 'No dead letter: nothing was given up' + (queue.shared ? ' or parked.' : '.')));
				return;
			}
			const headings = ['Item', 'Why', 'Attempts', 'Last error', 'When'];
			const rows = letters.map((letter) => {
				const cells = [element('td', { class: 'item' }, keyText(letter.item)), element('td', {}, letter.reason),
					element('td', { class: 'num' }, letter.attempts > 0 ? String(letter.attempts) : '–'),
					element('td', { class: 'error' }, letter.lastError || '–'),
					element('td', { class: 'num' }, letter.atMillis ? clock(letter.atMillis) : '–')];
				if (writes) {
					const requeue = element('button', { type: 'button', 'data-action': 'requeue-dead-letter' }, 'Requeue');
					const drop = element('button', { type: 'button', class: 'danger', 'data-action': 'drop-dead-letter' }, 'Drop');
					requeue.addEventListener('click', () => act(name, { action: 'requeue-dead-letter', item: letter.item },
						'Requeued ' + letter.item + ' in ' + name + '.', answer));
					drop.addEventListener('click', () => {
						if (window.confirm('Drop the dead letter ' + letter.item + ' of ' + name + ' for good?')) {
							act(name, { action: 'drop-dead-letter', item: letter.item },
								'Dropped ' + letter.item + ' from ' + name + '.', answer);
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
			// The bulk actions act on every dead letter the search matches (all of them
			// without one), as many as counted here: the server refuses, changing nothing,
			// if they are no longer those (more came, some left). Offered on the newest page.
			if (writes && !queue.deadLettersOffset && letters.length > 0) {
				const chosen = count(queue.deadLetterCount) + ' dead letter' + (queue.deadLetterCount === 1 ? '' : 's')
					+ ' of ' + name + (search ? ' matching “' + search + '”' : '');
				const payload = (action) => ({ action, item: '*', search, count: queue.deadLetterCount,
					newest: letters[0].item, newestAt: letters[0].atMillis });
				const label = search ? ' the ' + count(queue.deadLetterCount) + ' matching' : ' all '
					+ count(queue.deadLetterCount);
				const requeueAll = element('button', { type: 'button', 'data-action': 'requeue-all-dead-letters' },
					'Requeue' + label);
				const dropAll = element('button', { type: 'button', class: 'danger', 'data-action': 'drop-all-dead-letters' },
					'Drop' + label);
				requeueAll.addEventListener('click', () => {
					if (window.confirm('Requeue the ' + chosen + '?')) {
						act(name, payload('requeue-dead-letter'), 'Requeued the ' + chosen + '.', answer);
					}
				});
				dropAll.addEventListener('click', () => {
					if (window.confirm('Drop the ' + chosen + ' for good?')) {
						act(name, payload('drop-dead-letter'), 'Dropped the ' + chosen + '.', answer);
					}
				});
				parts.push(element('div', { class: 'bulk' }, requeueAll, ' ', dropAll));
			}
			else if (writes && queue.deadLettersOffset > 0) {
				parts.push(element('p', { class: 'note', 'data-field': 'bulk-note' }, 'Requeue all and drop all are on '
					+ 'the first page: they act on the whole set you confirm there, newest first.'));
			}
			target.replaceChildren(...parts);
		}

		return { leases, instances, deadLetters, searchDeadLetters };
	}

	window.workqueueLists = lists;
})();
