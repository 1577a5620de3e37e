/**
 * The risk part of aggregate.html's script: reads the embedded aggregate (`#aggregate-data`)
 * and, with the inlined Chart.js and chartjs-chart-matrix, draws the charts whose
 * configurations riskCharts.ts builds (inlined before this script as the global
 * `AggregateRisk`, riskBundle.ts):
 *
 *   - the heatmap (`#risk-heatmap`, `heatmapChart`) of one risk figure (`#heat-figure`) over two
 *     swept parameters (`#heat-x`, `#heat-y`), the other parameters fixed by `#heat-fix-<i>`;
 *   - the line chart (`#risk-line`, `riskLineChart`) of one risk figure (`#line-figure`) over
 *     one parameter (`#line-x`), the others fixed by `#line-fix-<i>`.
 *
 * This script only reads the selects, says why a chart is missing, and redraws on change. Value
 * and interval texts come pre-formatted in the page data (`riskText[point][figure]`), so the
 * page and its static table print the same digits. A select whose value is empty falls back to
 * its default (first figure; parameters 0 and 1; each parameter's first value). Plain ES2017
 * like the rest of the page.
 */
import { RISK_GLOBAL } from './riskBundle.js'

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
  var risk = typeof ${RISK_GLOBAL} === 'undefined' ? null : ${RISK_GLOBAL};
  var firstFigure = agg.risk.figures.length > 0 ? agg.risk.figures[0].name : null;
  var heat = null, line = null;

  function fmt(v) { return typeof v === 'string' ? v : JSON.stringify(v); }
  function val(id, fallback) {
    var el = document.getElementById(id);
    return el && el.value !== '' && el.value !== undefined ? el.value : fallback;
  }
  function fixer(prefix) {
    return function (k) { return val(prefix + k, fmt(params[k].values[0])); };
  }
  function say(id, text) {
    var el = document.getElementById(id);
    if (el) el.textContent = text;
  }
  function disableFixed(prefix, free) {
    for (var k = 0; k < params.length; k++) {
      var el = document.getElementById(prefix + k);
      if (el) el.disabled = free.indexOf(k) >= 0;
    }
  }

  function drawHeatmap() {
    var canvas = document.getElementById('${RISK_HEATMAP_ID}');
    if (!canvas) return;
    if (heat) { heat.destroy(); heat = null; }
    var xi = Number(val('heat-x', '0')), yi = Number(val('heat-y', '1'));
    disableFixed('heat-fix-', [xi, yi]);
    if (risk === null || typeof Chart === 'undefined' || !Chart.registry || !Chart.registry.controllers.get('matrix')) {
      say('heat-note', 'Chart.js or its matrix chart did not load; the table below has every figure.');
      return;
    }
    var choice = { x: xi, y: yi, figure: val('heat-figure', firstFigure), fixed: fixer('heat-fix-') };
    var chart = risk.heatmapChart(agg, page.riskText, choice);
    if ('note' in chart) { say('heat-note', chart.note); return; }
    say('heat-note', '');
    var box = canvas.parentNode;
    if (box && box.style) box.style.height = chart.height + 'px';
    heat = new Chart(canvas, chart.config);
  }

  function drawLine() {
    var canvas = document.getElementById('${RISK_LINE_ID}');
    if (!canvas) return;
    if (line) { line.destroy(); line = null; }
    if (risk === null || typeof Chart === 'undefined') { say('line-note', 'Chart.js did not load; the table below has every figure.'); return; }
    var xi = Number(val('line-x', '0'));
    disableFixed('line-fix-', [xi]);
    var choice = { x: xi, figure: val('line-figure', firstFigure), fixed: fixer('line-fix-') };
    var chart = risk.riskLineChart(agg, page.riskText, choice);
    if ('note' in chart) { say('line-note', chart.note); return; }
    say('line-note', '');
    line = new Chart(canvas, chart.config);
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
