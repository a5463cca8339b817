// The dashboard's formatting and DOM helpers: times, rates, counts and quantile estimates as
// text that says only what is known, and elements made from text (never from markup).
'use strict';

(() => {
	function element(tag, attributes, ...children) {
		const node = document.createElement(tag);
		for (const [name, value] of Object.entries(attributes || {})) {
			if (value !== undefined && value !== null) {
				node.setAttribute(name, value);
			}
		}
		for (const child of children) {
			node.append(child instanceof Node ? child : document.createTextNode(String(child)));
		}
		return node;
	}

	// A key as text that may wrap only after '.', '/', '-', ':' or '_' (never inside a
	// token), the whole key in its title for when the cell still cuts it.
	function key(text) {
		const node = element('span', { class: 'key', title: String(text) });
		for (const part of String(text).split(/(?<=[./\-:_])/)) {
			node.append(document.createTextNode(part), document.createElement('wbr'));
		}
		return node;
	}

	function svgElement(tag, attributes) {
		const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
		for (const [name, value] of Object.entries(attributes || {})) {
			node.setAttribute(name, value);
		}
		return node;
	}

	function seconds(value) {
		if (value === null || value === undefined) {
			return '–';
		}
		if (value < 0) {
			return '−' + seconds(-value);
		}
		if (value === 0) {
			return '0 s';
		}
		if (value < 1e-6) {
			return (value * 1e9).toFixed(0) + ' ns';
		}
		if (value < 1e-3) {
			return (value * 1e6).toFixed(0) + ' µs';
		}
		if (value < 1) {
			return (value * 1e3).toFixed(value < 1e-2 ? 1 : 0) + ' ms';
		}
		return value.toFixed(value < 10 ? 2 : 0) + ' s';
	}

	function perSecond(value) {
		return (value === null || value === undefined) ? '–' : (value < 10 ? value.toFixed(1) : value.toFixed(0)) + '/s';
	}

	function clock(millis) {
		return new Date(millis).toLocaleTimeString();
	}

	function count(value) {
		return (value === null || value === undefined) ? '–' : String(value);
	}

	// The finest time the page shows: Redis's clock counts microseconds, and a wait under
	// one is "< 1 µs", never nanoseconds.
	const FINEST_SECONDS = 1e-6;

	// A sample's value: a number, or a quantile estimate ({value, lower, upper}), drawn
	// no lower than FINEST_SECONDS.
	function valueOf(value) {
		const number = (value !== null && typeof value === 'object') ? value.value : value;
		return (value !== null && typeof value === 'object' && number < FINEST_SECONDS) ? FINEST_SECONDS : number;
	}

	// A quantile estimate as what is known: below the lowest bucket, above the highest, a
	// value when its bucket is narrow, else the bucket's range; never a made-up precision.
	function estimate(value) {
		if (value === null || value === undefined) {
			return '–';
		}
		if (typeof value !== 'object') {
			return seconds(value);
		}
		if (value.upper !== null && value.upper !== undefined && value.upper <= FINEST_SECONDS) {
			return '< ' + seconds(FINEST_SECONDS);
		}
		if (value.lower === null || value.lower === undefined) {
			return '< ' + seconds(value.upper);
		}
		if (value.upper === null || value.upper === undefined) {
			return '> ' + seconds(value.lower);
		}
		return value.upper <= value.lower * 2 ? seconds(value.value)
			: seconds(value.lower) + '–' + seconds(value.upper);
	}

	function table(headings, rows) {
		return element('table', {}, element('thead', {}, element('tr', {}, ...headings.map((h) => element('th', {}, h)))),
			element('tbody', {}, ...rows));
	}

	window.workqueueFormat = { element, key, svgElement, seconds, perSecond, clock, count, valueOf, estimate, table };
})();
