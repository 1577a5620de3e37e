/**
 * The script of aggregate.html: reads the embedded aggregate (`#aggregate-data`) and draws one
 * line chart per figure with the inlined Chart.js. The x axis is the first swept parameter (a
 * category axis, values in grid order); there is one line per value of the second parameter,
 * each the mean over seeds with its p5–p95 band shaded. With three or more parameters, a select
 * per further parameter (`#slice-<i>`) picks the slice of the grid that is drawn. Plain ES2017,
 * like report.html's script, so the page opens in any recent browser without a build step.
 */

/** Canvas id of the chart of figure number `i` (in the aggregate's `figures` order). */
export function figureChartId(i: number): string {
  return `chart-figure-${i}`
}

/** The page script's source. String.raw: the text below is the browser's JavaScript verbatim. */
export const AGGREGATE_SCRIPT = String.raw`
(function () {
  'use strict';
  var COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  var page = JSON.parse(document.getElementById('aggregate-data').textContent);
  var agg = page.aggregate;
  var params = agg.params;
  var charts = [];

  function fmt(v) {
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
  function alpha(hex) {
    var n = parseInt(hex.slice(1), 16);
    return 'rgba(' + ((n >> 16) & 255) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',0.18)';
  }
  function sliceValue(i) {
    var el = document.getElementById('slice-' + i);
    return el ? el.value : fmt(params[i].values[0]);
  }
  function inSlice(pt) {
    for (var i = 2; i < params.length; i++) if (fmt(pt.values[i]) !== sliceValue(i)) return false;
    return true;
  }
  function find(x, g) {
    for (var k = 0; k < agg.points.length; k++) {
      var pt = agg.points[k];
      if (params.length > 0 && fmt(pt.values[0]) !== x) continue;
      if (g !== null && fmt(pt.values[1]) !== g) continue;
      if (inSlice(pt)) return pt;
    }
    return null;
  }
  function stat(pt, figure, key) {
    var s = pt ? pt.figures[figure] : null;
    return s && typeof s[key] === 'number' ? s[key] : null;
  }
  function note(canvas, text) {
    var p = document.createElement('p');
    p.className = 'note';
    p.textContent = text;
    canvas.parentNode.parentNode.replaceChild(p, canvas.parentNode);
  }

  function datasets(figure, xs) {
    var groups = params.length > 1 ? params[1].values.map(fmt) : [null];
    var out = [];
    groups.forEach(function (g, gi) {
      var color = COLORS[gi % COLORS.length];
      var mean = [], lo = [], hi = [];
      xs.forEach(function (x) {
        var pt = find(x, g);
        mean.push(stat(pt, figure, 'mean'));
        lo.push(stat(pt, figure, 'p5'));
        hi.push(stat(pt, figure, 'p95'));
      });
      var name = g === null ? 'mean' : params[1].path + ' = ' + g;
      out.push({ label: name + ' p95', data: hi, band: true, borderWidth: 0, pointRadius: 0, backgroundColor: alpha(color), fill: '+1' });
      out.push({ label: name + ' p5', data: lo, band: true, borderWidth: 0, pointRadius: 0, backgroundColor: alpha(color), fill: false });
      out.push({ label: name, data: mean, borderColor: color, backgroundColor: color, fill: false, spanGaps: true });
    });
    return out;
  }

  function draw() {
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    var xs = params.length > 0 ? params[0].values.map(fmt) : ['base'];
    agg.figures.forEach(function (figure, i) {
      var canvas = document.getElementById('chart-figure-' + i);
      if (!canvas) return;
      if (typeof Chart === 'undefined') { note(canvas, 'Chart.js did not load; the table below has every figure.'); return; }
      charts.push(new Chart(canvas, {
        type: 'line',
        data: { labels: xs, datasets: datasets(figure, xs) },
        options: {
          animation: false,
          maintainAspectRatio: false,
          interaction: { mode: 'index', intersect: false },
          plugins: {
            legend: { labels: { filter: function (item, data) { return !data.datasets[item.datasetIndex].band; } } },
            tooltip: { filter: function (item) { return !item.dataset.band; } }
          },
          scales: {
            x: { title: { display: true, text: params.length > 0 ? params[0].path : 'grid point' } },
            y: { title: { display: true, text: page.labels[figure] || figure } }
          }
        }
      }));
    });
  }

  for (var i = 2; i < params.length; i++) {
    var el = document.getElementById('slice-' + i);
    if (el) el.addEventListener('change', draw);
  }
  draw();
})();
`
