/**
 * The script of report.html: reads the embedded report (`#report-data`) and draws the charts
 * with the inlined Chart.js. Plain ES2017 (no optional chaining, no object spread), so the page
 * opens in any browser of the last years without a build step.
 *
 * The charts' x axis is a category axis of the series' points, labelled by ledger or by hours
 * since the start (the `#x-axis` select switches every such chart). With no data a chart is
 * replaced by a note, never left to throw.
 *
 * The canvas ids it expects are listed in `CHART_IDS` (and `chart-price-<i>` per asset); html.ts
 * renders them.
 */

/** Canvas ids drawn by the page script; price charts are `chart-price-<asset index>`. */
export const CHART_IDS = {
  sharePrice: 'chart-share-price',
  apy: 'chart-apy',
  fillDelay: 'chart-fill-delay',
  keepers: 'chart-keepers',
  utilisation: 'chart-utilisation',
  lockedProfit: 'chart-locked-profit',
  badDebt: 'chart-bad-debt',
} as const

/** The APY series leaves out points closer to the start than this (seconds); see the caption. */
export const APY_MIN_SECONDS = 3600

/** The page script's source. String.raw: the text below is the browser's JavaScript verbatim. */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var YEAR_SECONDS = 365 * 24 * 3600;
  var APY_MIN_SECONDS = ${APY_MIN_SECONDS};
  var IDS = ${JSON.stringify(CHART_IDS)};
  var COLORS = { market: '#1f77b4', oracle: '#ff7f0e', dex: '#2ca02c', fill: '#d62728', main: '#1f77b4', second: '#9467bd' };

  var report = JSON.parse(document.getElementById('report-data').textContent);
  var series = report.series;
  var n = series.ledger.length;
  var xMode = 'ledger';
  var seriesCharts = [];

  function num(list, i) {
    if (!list || i >= list.length) return null;
    var v = list[i];
    return typeof v === 'number' && isFinite(v) ? v : null;
  }
  function column(list) {
    var out = [];
    for (var i = 0; i < n; i++) out.push(num(list, i));
    return out;
  }
  function round(v, digits) {
    return v === null ? null : Number(v.toFixed(digits));
  }
  function xLabels(mode) {
    var out = [];
    for (var i = 0; i < n; i++) {
      var v = mode === 'hours' ? num(series.time, i) : num(series.ledger, i);
      out.push(v === null ? '' : mode === 'hours' ? (v / 3600).toFixed(2) : String(v));
    }
    return out;
  }
  function xTitle(mode) {
    return mode === 'hours' ? 'hours since the start' : 'ledger';
  }
  function percentTick(v) {
    return Number(Number(v).toFixed(6)) + '%';
  }
  function shortId(id) {
    var parts = String(id).split(':');
    var user = parts[0] || '';
    if (user.length > 12) user = user.slice(0, 4) + '\u2026' + user.slice(-4);
    return user + ':' + parts.slice(1).join(':');
  }

  function note(id, text) {
    var canvas = document.getElementById(id);
    if (!canvas) return;
    var p = document.createElement('p');
    p.className = 'note';
    p.textContent = text;
    var box = canvas.parentNode;
    box.parentNode.replaceChild(p, box);
  }
  function options(xText, yText) {
    return {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      plugins: { legend: { position: 'bottom' } },
      scales: {
        x: { title: { display: true, text: xText } },
        y: { title: { display: true, text: yText } }
      }
    };
  }
  function line(label, data, color, extra) {
    var d = { label: label, data: data, borderColor: color, backgroundColor: color, borderWidth: 1.5, pointRadius: 0, spanGaps: false };
    if (extra) Object.keys(extra).forEach(function (k) { d[k] = extra[k]; });
    return d;
  }
  function draw(id, config) {
    var canvas = document.getElementById(id);
    if (!canvas) return null;
    return new Chart(canvas, config);
  }
  /** A line chart over the series' points; registered for the x-axis switch. */
  function seriesChart(id, yText, datasets, percent) {
    if (n === 0) return note(id, 'No series points were recorded.');
    var o = options(xTitle(xMode), yText);
    if (percent) o.scales.y.ticks = { callback: percentTick };
    o.plugins.tooltip = { callbacks: { title: pointTitle } };
    var chart = draw(id, { type: 'line', data: { labels: xLabels(xMode), datasets: datasets }, options: o });
    if (chart) seriesCharts.push(chart);
  }
  /** Tooltip title of a series point: its ledger and its time, whichever the axis shows. */
  function pointTitle(items) {
    if (!items.length) return '';
    var i = items[0].dataIndex;
    var ledger = num(series.ledger, i);
    var t = num(series.time, i);
    return 'ledger ' + (ledger === null ? '?' : ledger) + (t === null ? '' : ' \u00b7 ' + (t / 3600).toFixed(2) + ' h');
  }
  /** The first series point at or after a ledger, or -1. */
  function pointAt(ledger) {
    for (var i = 0; i < n; i++) if (num(series.ledger, i) !== null && series.ledger[i] >= ledger) return i;
    return -1;
  }

  // Share price.
  seriesChart(IDS.sharePrice, 'share price (USDC per share)', [line('share price', column(series.sharePrice), COLORS.main, { stepped: true })]);

  // APY over the run: the annualised return from the start to each point.
  (function () {
    var p0 = num(series.sharePrice, 0);
    var t0 = num(series.time, 0);
    var apy = [];
    var any = false;
    for (var i = 0; i < n; i++) {
      var p = num(series.sharePrice, i);
      var t = num(series.time, i);
      var v = null;
      if (p0 !== null && p0 > 0 && p !== null && t0 !== null && t !== null && t - t0 >= APY_MIN_SECONDS) {
        v = Math.pow(p / p0, YEAR_SECONDS / (t - t0)) - 1;
        v = isFinite(v) ? round(v * 100, 6) : null;
      }
      if (v !== null) any = true;
      apy.push(v);
    }
    if (n > 0 && !any) return note(IDS.apy, 'No point lies an hour or more after the start: nothing to annualise.');
    seriesChart(IDS.apy, 'annualised return since the start', [line('annualised return from the start to this point', apy, COLORS.second)], true);
  })();

  // Price paths per asset, with a marker at each fill (the oracle price of the fill's point).
  series.assets.forEach(function (code, a) {
    var oracle = column(series.oracle[code]);
    var fills = [];
    for (var i = 0; i < n; i++) fills.push(null);
    report.auctions.forEach(function (au) {
      if (au.filledLedger === null) return;
      var at = pointAt(au.filledLedger);
      if (at >= 0 && oracle[at] !== null) fills[at] = oracle[at];
    });
    seriesChart('chart-price-' + a, code + ' price (USD)', [
      line('market', column(series.market[code]), COLORS.market),
      line('oracle', oracle, COLORS.oracle, { stepped: true }),
      line('DEX', column(series.dex[code]), COLORS.dex),
      line('liquidation fill', fills, COLORS.fill, { showLine: false, pointRadius: 5, pointStyle: 'triangle' })
    ]);
  });

  // Fill delay per filled auction: ledgers after the first profitable ledger.
  (function () {
    var filled = report.auctions.filter(function (au) { return au.filledLedger !== null && au.fillDelay !== null; });
    if (filled.length === 0) return note(IDS.fillDelay, 'No auction was filled after a first profitable ledger.');
    var o = options('auction (user:kind:start ledger)', 'ledgers after the first profitable ledger');
    o.plugins.tooltip = { callbacks: { title: function (items) { return items.length ? filled[items[0].dataIndex].id : ''; } } };
    draw(IDS.fillDelay, {
      type: 'bar',
      data: {
        labels: filled.map(function (au) { return shortId(au.id); }),
        datasets: [{ label: 'fill delay (ledgers)', data: filled.map(function (au) { return au.fillDelay; }), backgroundColor: COLORS.main }]
      },
      options: o
    });
  })();

  // Keeper P&L and win rate.
  (function () {
    var keepers = report.keepers;
    if (keepers.length === 0) return note(IDS.keepers, 'No keepers.');
    var o = options('keeper', 'profit (USDC)');
    o.scales.y1 = { position: 'right', min: 0, max: 100, grid: { drawOnChartArea: false }, title: { display: true, text: 'win rate' }, ticks: { callback: percentTick } };
    draw(IDS.keepers, {
      type: 'bar',
      data: {
        labels: keepers.map(function (k) { return k.name; }),
        datasets: [
          { label: 'profit (USDC)', data: keepers.map(function (k) { return k.profit; }), backgroundColor: COLORS.main, yAxisID: 'y' },
          { label: 'win rate (% of fills)', data: keepers.map(function (k) { return round(k.winRate * 100, 4); }), backgroundColor: COLORS.second, yAxisID: 'y1' }
        ]
      },
      options: o
    });
  })();

  // Capital utilisation: active liquidations / total USDC.
  (function () {
    var util = [];
    for (var i = 0; i < n; i++) {
      var total = num(series.totalUsdc, i);
      var active = num(series.activeLiq, i);
      util.push(total !== null && total > 0 && active !== null ? round((active / total) * 100, 6) : null);
    }
    seriesChart(IDS.utilisation, 'active_liq / total_usdc', [line('utilisation', util, COLORS.main)], true);
  })();

  // Profit booked over the run and the part of it still locked (a report from before the lock has no such column).
  seriesChart(IDS.lockedProfit, 'USDC', [
    line('profit booked', column(series.totalProfit), COLORS.main),
    line('still locked', column(series.lockedProfit), COLORS.second)
  ]);

  // Bad debt.
  seriesChart(IDS.badDebt, 'bad debt (USD)', [line('bad debt', column(series.badDebt), COLORS.fill, { stepped: true })]);

  var select = document.getElementById('x-axis');
  if (select) {
    select.addEventListener('change', function () {
      xMode = select.value === 'hours' ? 'hours' : 'ledger';
      var labels = xLabels(xMode);
      seriesCharts.forEach(function (chart) {
        chart.data.labels = labels;
        chart.options.scales.x.title.text = xTitle(xMode);
        chart.update();
      });
    });
  }
})();
`
