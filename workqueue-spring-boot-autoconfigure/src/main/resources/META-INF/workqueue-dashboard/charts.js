// The dashboard's charts: SVG line charts of a queue's samples over the history window, each
// axis with its unit, log scale for durations, lone samples drawn as points, a gap where
// samples are missing, a quantile above the top bucket as an open band up to the top. Each
// chart is drawn at its own width, so that its labels keep their size in a narrow window.
'use strict';

(() => {
	const { element, svgElement, seconds, perSecond, count, valueOf, estimate } = window.workqueueFormat;
	const historyMillis = Number(document.body.dataset.historyMillis) || 600000;
	// Samples further apart than this had missing ones between them: the line breaks.
	const gapMillis = 2.5 * (Number(document.body.dataset.refreshMillis) || 2000);

	// Whether a value is a quantile estimate in the open-ended top bucket.
	function saturated(value) {
		return value !== null && typeof value === 'object' && (value.upper === null || value.upper === undefined)
			&& value.lower !== null && value.lower !== undefined;
	}

	function chart(title, kind, series) {
		const svg = svgElement('svg', { viewBox: '0 0 600 160', 'data-chart': kind });
		const legend = element('div', { class: 'legend' });
		for (const line of series) {
			const swatch = element('i');
			swatch.style.background = line.color;
			legend.append(element('span', { 'data-series': line.key }, swatch, line.label + ' ', element('b', {}, '–')));
		}
		return element('figure', { class: 'chart' }, element('figcaption', {}, title), svg, legend);
	}

	// Draws the series of the samples; kind is 'rate' (per second), 'count' or 'seconds'
	// (log scale). A value with no neighbour to join is drawn as a point.
	function draw(svg, samples, series, kind) {
		const log = kind === 'seconds';
		const legend = svg.parentNode.querySelector('.legend');
		svg.replaceChildren();
		svg.setAttribute('data-samples', String(samples.length));
		// One unit of the drawing is one pixel: text and points are never stretched.
		const width = Math.max(200, Math.round(svg.getBoundingClientRect().width) || 600);
		svg.setAttribute('viewBox', '0 0 ' + width + ' 160');
		// The window grows with the samples, from a minute up to the whole history.
		const end = samples.length ? samples[samples.length - 1].time : Date.now();
		const span = Math.min(historyMillis, Math.max(60000, samples.length ? end - samples[0].time : 0));
		const start = end - span;
		const values = samples.flatMap((sample) => series.map((line) => valueOf(sample[line.key])))
			.filter((value) => value !== null && value !== undefined && (!log || value > 0));
		// The lower end of the open-ended top bucket, when a quantile fell in it: such a
		// value is only known to be above it, and is drawn as a band up to the top.
		const ceiling = samples.flatMap((sample) => series.map((line) => sample[line.key]))
			.filter(saturated).reduce((most, value) => Math.max(most, value.lower), 0) || null;
		let low = 0;
		// Counts are whole: an even top, so that the middle tick is whole too.
		let high = kind === 'count' ? 2 * Math.ceil(Math.max(1, ...values) * 1.1 / 2) : Math.max(1, ...values) * 1.1;
		if (log) {
			low = values.length ? Math.pow(10, Math.floor(Math.log10(Math.min(...values)))) : 1e-3;
			high = values.length ? Math.pow(10, Math.ceil(Math.log10(Math.max(...values)))) : 1;
			if (high <= low) {
				high = low * 10;
			}
			if (ceiling !== null) {
				// One decade above the top bucket, labelled as open-ended.
				high = Math.max(high, ceiling * 10);
			}
		}
		const y = (value) => {
			const fraction = log ? (Math.log10(value) - Math.log10(low)) / (Math.log10(high) - Math.log10(low))
				: (value - low) / (high - low);
			return 150 - fraction * 140;
		};
		const x = (time) => 40 + (time - start) / (end - start || 1) * (width - 45);
		const ticks = log ? [low, Math.sqrt(low * high), high] : [low, (low + high) / 2, high];
		for (const tick of ticks) {
			svg.append(svgElement('line', { class: 'grid', x1: 40, x2: width - 5, y1: y(tick), y2: y(tick) }));
			const label = svgElement('text', { class: 'axis', x: 2, y: y(tick) + 3 });
			label.textContent = log && ceiling !== null && tick === high ? '> ' + seconds(ceiling)
				: log || kind === 'age' ? seconds(tick)
				: (kind === 'count' ? Math.round(tick).toString() : (tick < 10 ? tick.toFixed(1) : tick.toFixed(0)) + '/s');
			svg.append(label);
		}
		const spanLabel = svgElement('text', { class: 'axis', x: width - 5, y: 158, 'text-anchor': 'end' });
		spanLabel.textContent = 'last ' + Math.round(span / 60000) + ' min';
		svg.append(spanLabel);
		const drawable = (value) => value !== null && value !== undefined && (!log || value > 0);
		// A sample's width on the chart, for a band drawn over it.
		const step = Math.max(3, x(end) - x(end - gapMillis / 2.5));
		for (const line of series) {
			let path = '';
			let pen = 'M';
			samples.forEach((sample, i) => {
				if (log && saturated(sample[line.key])) {
					// Above the top bucket: an open band from its lower end up, never a
					// line at the bound, which would read as exactly that value.
					const band = svgElement('rect', { class: 'saturated', 'data-series': line.key,
						x: (x(sample.time) - step / 2).toFixed(1), y: y(high).toFixed(1), width: step.toFixed(1),
						height: (y(sample[line.key].lower) - y(high)).toFixed(1) });
					band.style.fill = line.color;
					svg.append(band);
					pen = 'M';
					return;
				}
				const value = valueOf(sample[line.key]);
				if (!drawable(value)) {
					pen = 'M';
					return;
				}
				const px = x(sample.time).toFixed(1);
				const py = y(value).toFixed(1);
				const joined = (other) => other >= 0 && other < samples.length
					&& Math.abs(samples[other].time - sample.time) <= gapMillis
					&& !(log && saturated(samples[other][line.key])) && drawable(valueOf(samples[other][line.key]));
				const before = joined(i - 1);
				const after = joined(i + 1);
				if (!before) {
					pen = 'M';
				}
				if (!before && !after) {
					const point = svgElement('circle', { class: 'point', cx: px, cy: py, r: 2.5 });
					point.style.fill = line.color;
					svg.append(point);
				}
				path += pen + px + ' ' + py + ' ';
				pen = 'L';
			});
			const drawn = svgElement('path', { class: 'series', d: path.trim(), 'data-series': line.key });
			drawn.style.stroke = line.color;
			svg.append(drawn);
			const last = samples.length ? samples[samples.length - 1][line.key] : null;
			legend.querySelector('[data-series="' + line.key + '"] b').textContent = log ? estimate(last)
				: (kind === 'count' ? count(last) : (kind === 'age' ? seconds(last) : perSecond(last)));
		}
	}

	window.workqueueCharts = { chart, draw };
})();
