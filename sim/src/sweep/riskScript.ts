/**
 * The risk part of aggregate.html's script: reads the embedded aggregate (`#aggregate-data`)
 * and draws, with the inlined Chart.js and chartjs-chart-matrix,
 *
 *   - a heatmap (`#risk-heatmap`, chart type `matrix`) of one risk figure (`#heat-figure`) over
 *     two swept parameters (`#heat-x`, `#heat-y`), the other parameters fixed by `#heat-fix-<i>`;
 *     a cell's colour runs from green (good for the pool) to red (bad) over the cells shown,
 *     by the figure's `better` direction (blue shades when neither is better), and the cell is
 *     labelled with the value and its 95 % interval;
 *   - a line chart (`#risk-line`) of one risk figure (`#line-figure`) over one parameter
 *     (`#line-x`) with its interval as a shaded band, the others fixed by `#line-fix-<i>`.
 *
 * Value and interval texts come pre-formatted in the page data (`riskText[point][figure]`), so
 * the page and its static table print the same digits. A select whose value is empty falls back
 * to its default (first figure; parameters 0 and 1; each parameter's first value). Plain
 * ES2017 like the rest of the page.
 */

/** Canvas ids of the heatmap and the line chart. */
export const RISK_HEATMAP_ID = 'risk-heatmap'
export const RISK_LINE_ID = 'risk-line'

/** The page script's source. String.raw: the text below is the browser's JavaScript verbatim. */
export const RISK_SCRIPT = String.raw`
(function () {
  'use strict';
  var page = JSON.parse(document.getElementById('aggregate-data').textContent);
  var agg = page.aggregate;
  var params = agg.params;
  var infos = {};
  agg.risk.figures.forEach(function (f) { infos[f.name] = f; });
  var firstFigure = agg.risk.figures.length > 0 ? agg.risk.figures[0].name : null;
  var heat = null, line = null;

  function fmt(v) { return typeof v === 'string' ? v : JSON.stringify(v); }
  function val(id, fallback) {
    var el = document.getElementById(id);
    return el && el.value !== '' && el.value !== undefined ? el.value : fallback;
  }
  function fixed(prefix, k) { return val(prefix + k, fmt(params[k].values[0])); }
  function say(id, text) {
    var el = document.getElementById(id);
    if (el) el.textContent = text;
  }
  /** Points whose parameters other than those in free[] equal the selects prefix-<k>. */
  function slice(prefix, free) {
    var out = [];
    agg.points.forEach(function (pt, i) {
      for (var k = 0; k < params.length; k++) {
        if (free.indexOf(k) >= 0) continue;
        if (fmt(pt.values[k]) !== fixed(prefix, k)) return;
      }
      out.push({ pt: pt, i: i });
    });
    return out;
  }
  function texts(i, figure) {
    var t = page.riskText[i] && page.riskText[i][figure];
    return t || ['–', ''];
  }
  function disableFixed(prefix, free) {
    for (var k = 0; k < params.length; k++) {
      var el = document.getElementById(prefix + k);
      if (el) el.disabled = free.indexOf(k) >= 0;
    }
  }

  /** Green (good) → yellow → red (bad) for t in 0..1 of badness; blue shades when no direction. */
  function colour(t, better) {
    if (better === null || better === undefined) {
      var l = Math.round(92 - 50 * t);
      return 'hsl(210, 70%, ' + l + '%)';
    }
    var bad = better === 'lower' ? t : 1 - t;
    return 'hsl(' + Math.round(120 * (1 - bad)) + ', 70%, 62%)';
  }

  var cellLabels = {
    id: 'riskCellLabels',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      var meta = chart.getDatasetMeta(0);
      var data = chart.data.datasets[0].data;
      ctx.save();
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = '#1b1f24';
      meta.data.forEach(function (el, i) {
        var c = el.getCenterPoint();
        ctx.font = 'bold 12px system-ui, sans-serif';
        ctx.fillText(data[i].text[0], c.x, c.y - 8);
        ctx.font = '11px system-ui, sans-serif';
        ctx.fillText(data[i].text[1], c.x, c.y + 8);
      });
      ctx.restore();
    }
  };

  function drawHeatmap() {
    var canvas = document.getElementById('${RISK_HEATMAP_ID}');
    if (!canvas) return;
    if (heat) { heat.destroy(); heat = null; }
    var xi = Number(val('heat-x', '0')), yi = Number(val('heat-y', '1'));
    var figure = val('heat-figure', firstFigure);
    disableFixed('heat-fix-', [xi, yi]);
    if (xi === yi) { say('heat-note', 'Choose two different parameters for X and Y.'); return; }
    if (typeof Chart === 'undefined' || !Chart.registry || !Chart.registry.controllers.get('matrix')) {
      say('heat-note', 'Chart.js or its matrix chart did not load; the table below has every figure.');
      return;
    }
    say('heat-note', '');
    var xs = params[xi].values.map(fmt), ys = params[yi].values.map(fmt);
    var cells = slice('heat-fix-', [xi, yi]).map(function (s) {
      var r = s.pt.risk[figure] || { value: null, lo: null, hi: null, n: 0 };
      return { x: fmt(s.pt.values[xi]), y: fmt(s.pt.values[yi]), v: r.value, lo: r.lo, hi: r.hi, n: r.n, id: s.pt.id, text: texts(s.i, figure) };
    });
    var finite = cells.filter(function (c) { return typeof c.v === 'number'; }).map(function (c) { return c.v; });
    var min = Math.min.apply(null, finite), max = Math.max.apply(null, finite);
    var better = infos[figure] ? infos[figure].better : null;
    var box = canvas.parentNode;
    if (box && box.style) box.style.height = Math.max(260, 70 * ys.length + 110) + 'px';
    heat = new Chart(canvas, {
      type: 'matrix',
      data: {
        datasets: [{
          label: infos[figure] ? infos[figure].label : figure,
          data: cells,
          backgroundColor: function (c) {
            var cell = c.raw;
            if (!cell || typeof cell.v !== 'number') return '#eaeef2';
            return colour(max > min ? (cell.v - min) / (max - min) : 0.5, better);
          },
          borderColor: '#ffffff',
          borderWidth: 1,
          width: function (c) { var a = c.chart.chartArea; return a ? a.width / xs.length - 2 : 20; },
          height: function (c) { var a = c.chart.chartArea; return a ? a.height / ys.length - 2 : 20; }
        }]
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: function (items) { return items.length ? items[0].raw.id : ''; },
              label: function (item) { return item.raw.text[0] + ' ' + item.raw.text[1] + ' n=' + item.raw.n; }
            }
          }
        },
        scales: {
          x: { type: 'category', labels: xs, offset: true, grid: { display: false }, title: { display: true, text: params[xi].path } },
          y: { type: 'category', labels: ys, offset: true, grid: { display: false }, title: { display: true, text: params[yi].path } }
        }
      },
      plugins: [cellLabels]
    });
  }

  function drawLine() {
    var canvas = document.getElementById('${RISK_LINE_ID}');
    if (!canvas) return;
    if (line) { line.destroy(); line = null; }
    if (typeof Chart === 'undefined') { say('line-note', 'Chart.js did not load; the table below has every figure.'); return; }
    var xi = Number(val('line-x', '0'));
    var figure = val('line-figure', firstFigure);
    disableFixed('line-fix-', [xi]);
    var xs = params[xi].values.map(fmt);
    var byX = {};
    slice('line-fix-', [xi]).forEach(function (s) { byX[fmt(s.pt.values[xi])] = s.pt; });
    function series(key) {
      return xs.map(function (x) {
        var r = byX[x] ? byX[x].risk[figure] : null;
        return r && typeof r[key] === 'number' ? r[key] : null;
      });
    }
    var label = infos[figure] ? infos[figure].label : figure;
    line = new Chart(canvas, {
      type: 'line',
      data: {
        labels: xs,
        datasets: [
          { label: '95 % CI high', data: series('hi'), band: true, borderWidth: 0, pointRadius: 0, backgroundColor: 'rgba(31,119,180,0.18)', fill: '+1' },
          { label: '95 % CI low', data: series('lo'), band: true, borderWidth: 0, pointRadius: 0, backgroundColor: 'rgba(31,119,180,0.18)', fill: false },
          { label: label, data: series('value'), borderColor: '#1f77b4', backgroundColor: '#1f77b4', fill: false, spanGaps: true }
        ]
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: { labels: { filter: function (item, data) { return !data.datasets[item.datasetIndex].band; } } },
          tooltip: {
            filter: function (item) { return !item.dataset.band; },
            callbacks: {
              label: function (item) {
                var pt = byX[xs[item.dataIndex]];
                var i = agg.points.indexOf(pt);
                var t = texts(i, figure);
                return t[0] + ' ' + t[1] + ' n=' + (pt && pt.risk[figure] ? pt.risk[figure].n : 0);
              }
            }
          }
        },
        scales: {
          x: { title: { display: true, text: params[xi].path } },
          y: { title: { display: true, text: label } }
        }
      }
    });
  }

  function listen(ids, fn) {
    ids.forEach(function (id) {
      var el = document.getElementById(id);
      if (el && el.addEventListener) el.addEventListener('change', fn);
    });
  }
  var fixIds = function (prefix) { return params.map(function (_, k) { return prefix + k; }); };
  if (params.length >= 2) {
    listen(['heat-x', 'heat-y', 'heat-figure'].concat(fixIds('heat-fix-')), drawHeatmap);
    drawHeatmap();
  }
  if (params.length >= 1) {
    listen(['line-x', 'line-figure'].concat(fixIds('line-fix-')), drawLine);
    drawLine();
  }
})();
`
