// The report page: reads the data the tuner wrote into #report-data and draws it with
// Vega-Lite. Text from the database reaches the page only as data: through textContent
// here, and as Vega text marks and tooltips (which escape it) in the charts.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const PARAMS = ['BM', 'BN', 'BK', 'WM', 'WN', 'WNITER', 'TM', 'TN', 'STAGES', 'PREFETCH', 'STREAMK'];
  const GREEN = '#76b900', GREY = '#8c959f', RED = '#cf222e', AMBER = '#d4a017', BLUE = '#2f6fb0';
  const CONFIG = {
    font: 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif',
    view: {stroke: null},
    axis: {labelFontSize: 11, titleFontSize: 12, titleFontWeight: 500, gridColor: '#eaeef2', domainColor: '#8c959f',
           tickColor: '#8c959f'},
    legend: {labelFontSize: 11, titleFontSize: 11, orient: 'top'},
    header: {labelFontSize: 12, labelFontWeight: 600},
  };
  const pending = [];

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function draw(id, spec) {
    const target = document.getElementById(id);
    target.removeAttribute('data-rendered');
    spec.$schema = 'https://vega.github.io/schema/vega-lite/v6.json';  // a name, never fetched
    spec.config = CONFIG;
    const done = vegaEmbed(target, spec, {renderer: 'svg', actions: false})
      .then(function (result) { target.dataset.rendered = 'chart'; return result; })
      .catch(function (error) { console.error('chart ' + id + ' failed: ' + error); throw error; });
    pending.push(done);
    return done;
  }

  function empty(id, message) {
    const target = document.getElementById(id);
    target.replaceChildren(el('p', message, 'empty'));
    target.dataset.rendered = 'empty';
  }

  const fmt = function (v, digits) { return v === null || v === undefined ? '' : Number(v).toFixed(digits); };
  const shapeLabel = function (b) { return b.gpu + ' \u00b7 ' + b.shape; };
  const tileText = function (t) {
    return t.BM + 'x' + t.BN + 'x' + t.BK + ', warp ' + t.WM + 'x' + t.WN + ' x' + t.WNITER + ', thread ' + t.TM +
      'x' + t.TN + ', ' + t.STAGES + ' stages' + (t.PREFETCH ? ', prefetch' : '') + (t.STREAMK ? ', stream-K' : '');
  };

  // Header: where the page comes from, and the figures that matter most.
  function header() {
    const g = data.generator;
    const gpus = Array.from(new Set(data.best.map(function (b) { return b.gpu; })));
    const cw = g.compared_with;
    document.getElementById('provenance').textContent =
      'Database ' + g.database + ', as of ' + g.as_of + ' \u00b7 written by ' + g.tool + ' ' + g.version +
      (g.scope.shape || g.scope.gpu ? ' \u00b7 only ' + [g.scope.shape, g.scope.gpu].filter(Boolean).join(' on ') : '') +
      ' \u00b7 GPUs: ' + (gpus.join(', ') || 'none') + ' \u00b7 stale means not template ' + cw.template_hash +
      ', NVRTC ' + cw.nvrtc_version + ', tuner ' + cw.tuner_version +
      (cw.gpu ? ' and the driver of the ' + cw.gpu + ' here' : ' (no GPU here: drivers not compared)');
    const cards = document.getElementById('cards');
    const best = data.best.slice().sort(function (a, b) { return b.percent - a.percent; })[0];
    const add = function (value, key) {
      const c = el('div', undefined, 'card');
      c.append(el('div', value, 'v'), el('div', key, 'k'));
      cards.append(c);
    };
    if (best) {
      add(fmt(best.percent, 1) + '% of cuBLAS', 'best: ' + shapeLabel(best));
      add(fmt(best.tflops, 1) + ' TFLOP/s', tileText(best.tile));
    }
    add(data.best.length + ' (' + data.best.filter(function (b) { return b.stale; }).length + ' stale)', 'GPU and shape pairs tuned');
    add(data.runs.length, 'runs');
    add(data.candidates.length, 'configurations timed and verified');
  }

  function bestChart() {
    if (!data.best.length) return empty('chart-best', 'No verified result in this database.');
    const values = data.best.map(function (b) {
      return Object.assign({}, b, {freshness: b.stale ? 'stale' : 'fresh',
        label: fmt(b.percent, 1) + '%  ' + fmt(b.tflops, 1) + ' TFLOP/s', config: tileText(b.tile)});
    });
    const enc = {y: {field: 'shape', type: 'nominal', title: null, sort: null}};
    draw('chart-best', {
      data: {values: values},
      facet: {row: {field: 'gpu', type: 'nominal', title: null, header: {labelAngle: 0, labelAlign: 'left',
        labelAnchor: 'start', labelOrient: 'top'}}},
      spec: {width: 760, height: {step: 26}, layer: [
        {mark: {type: 'bar', height: {band: 0.7}, cornerRadiusEnd: 2}, encoding: Object.assign({}, enc, {
          x: {field: 'percent', type: 'quantitative', title: '% of cuBLAS (higher is faster)', scale: {domainMin: 0}},
          color: {field: 'freshness', type: 'nominal', title: null,
                  scale: {domain: ['fresh', 'stale'], range: [GREEN, GREY]}},
          tooltip: [{field: 'gpu', title: 'GPU'}, {field: 'shape'}, {field: 'percent', title: '% of cuBLAS'},
                    {field: 'tflops', title: 'TFLOP/s'}, {field: 'time_ms', title: 'ms'},
                    {field: 'cublas_ms', title: 'cuBLAS ms'}, {field: 'config'}, {field: 'freshness'},
                    {field: 'changes', title: 'changed since'}, {field: 'run_id', title: 'run'},
                    {field: 'measured_at', title: 'measured'}]})},
        {mark: {type: 'text', align: 'left', dx: 4, fontSize: 11}, encoding: Object.assign({}, enc, {
          x: {field: 'percent', type: 'quantitative'}, text: {field: 'label'}})},
        {mark: {type: 'rule', color: RED, strokeDash: [4, 3]}, encoding: {x: {datum: 100}}},
      ]},
    });
  }

  // The shape picked for the close-up sections.
  function shapeSections(series) {
    const b = data.best[series];
    const rows = data.candidates.filter(function (c) { return c.series === series; });
    document.getElementById('shape-line').textContent = b ? shapeLabel(b) + ': best ' + tileText(b.tile) + ', ' +
      fmt(b.time_ms, 4) + ' ms (cuBLAS ' + fmt(b.cublas_ms, 4) + ' ms), ' + fmt(b.percent, 1) + '% of cuBLAS; ' +
      rows.length + ' configurations timed under fingerprint ' + b.fingerprint + (b.stale ? ' (stale: ' + b.changes + ')' : '') : '';
    if (!rows.length) {
      ['chart-distribution', 'chart-tiles', 'chart-parameters'].forEach(function (id) { empty(id, 'Nothing timed.'); });
      table([]);
      return;
    }
    const seed = rows.find(function (r) { return r.seed; });
    const marks = [{what: 'best', percent: rows[0].percent, label: 'best ' + fmt(rows[0].percent, 1) + '%'}];
    if (seed) marks.push({what: 'seed', percent: seed.percent, label: 'seed ' + fmt(seed.percent, 1) + '%'});
    const markColor = {field: 'what', type: 'nominal', title: null, scale: {domain: ['best', 'seed'], range: [GREEN, AMBER]}};
    draw('chart-distribution', {
      width: 520, height: 220,
      layer: [
        {data: {values: rows}, mark: {type: 'bar', color: BLUE, opacity: 0.85},
         encoding: {x: {field: 'percent', type: 'quantitative', bin: {maxbins: 40}, title: '% of cuBLAS'},
                    y: {aggregate: 'count', type: 'quantitative', title: 'configurations'},
                    tooltip: [{field: 'percent', bin: {maxbins: 40}, title: '% of cuBLAS'},
                              {aggregate: 'count', title: 'configurations'}]}},
        {data: {values: marks}, mark: {type: 'rule', strokeWidth: 2},
         encoding: {x: {field: 'percent', type: 'quantitative'}, color: markColor}},
        {data: {values: marks}, mark: {type: 'text', align: 'right', dx: -4, dy: -4, baseline: 'top', y: 0, fontWeight: 600},
         encoding: {x: {field: 'percent', type: 'quantitative'}, text: {field: 'label'}, color: markColor}},
      ],
    });
    draw('chart-tiles', {
      data: {values: rows},
      transform: [{aggregate: [{op: 'max', field: 'percent', as: 'best'}, {op: 'count', as: 'timed'}], groupby: ['BM', 'BN']}],
      width: {step: 64}, height: {step: 40},
      encoding: {x: {field: 'BN', type: 'ordinal', axis: {labelAngle: 0}}, y: {field: 'BM', type: 'ordinal'}},
      layer: [
        {mark: 'rect', encoding: {color: {field: 'best', type: 'quantitative', title: '% of cuBLAS',
          scale: {scheme: 'viridis'}}, tooltip: [{field: 'BM'}, {field: 'BN'}, {field: 'best', title: 'best % of cuBLAS'},
          {field: 'timed', title: 'configurations timed'}]}},
        {mark: {type: 'text', fontSize: 12, fontWeight: 600}, encoding: {text: {field: 'best', format: '.1f'},
          color: {condition: {test: 'datum.best < 90', value: 'white'}, value: 'black'}}},
      ],
    });
    draw('chart-parameters', {
      data: {values: rows},
      transform: [
        {fold: PARAMS, as: ['parameter', 'value']},
        {aggregate: [{op: 'max', field: 'percent', as: 'best'}, {op: 'median', field: 'percent', as: 'median'},
                     {op: 'count', as: 'timed'}], groupby: ['parameter', 'value']},
        {fold: ['best', 'median'], as: ['statistic', 'percent']},
      ],
      facet: {field: 'parameter', type: 'nominal', sort: PARAMS, title: null},
      columns: 6,
      spec: {width: 140, height: 110,
        mark: {type: 'line', point: {filled: true, size: 40}},
        encoding: {x: {field: 'value', type: 'ordinal', title: null, axis: {labelAngle: 0}},
                   y: {field: 'percent', type: 'quantitative', scale: {zero: false}, title: '% of cuBLAS'},
                   color: {field: 'statistic', type: 'nominal', title: null, scale: {domain: ['best', 'median'], range: [GREEN, BLUE]}},
                   tooltip: [{field: 'parameter'}, {field: 'value'}, {field: 'statistic'}, {field: 'percent', format: '.2f'},
                             {field: 'timed', title: 'configurations timed'}]}},
      resolve: {scale: {x: 'independent'}},
    });
    table(rows);
  }

  const COLUMNS = [['rank', 'rank', 0]].concat(PARAMS.map(function (p) { return [p, p === 'PREFETCH' ? 'PF' : p === 'STREAMK' ? 'SK' : p, 0]; }))
    .concat([['registers', 'regs', 0], ['blocks_per_sm', 'blk/SM', 0], ['time_ms', 'time ms', 4], ['tflops', 'TFLOP/s', 2],
             ['percent', '%cuBLAS', 2], ['error', 'error', -1], ['run_id', 'run', 0]]);
  let tableRows = [];

  function table(rows) {
    tableRows = rows.slice(0, 200);
    const thead = document.querySelector('#top-table thead'), tr = el('tr');
    COLUMNS.forEach(function (c, i) {
      const th = el('th', c[1]);
      th.dataset.column = String(i);
      th.addEventListener('click', function () { sortBy(i, th); });
      tr.append(th);
    });
    thead.replaceChildren(tr);
    fillTable();
  }

  function fillTable() {
    const body = document.querySelector('#top-table tbody');
    body.replaceChildren.apply(body, tableRows.map(function (r) {
      const tr = el('tr', undefined, r.rank === 1 ? 'best' : r.seed ? 'seed' : '');
      COLUMNS.forEach(function (c) {
        const v = r[c[0]];
        tr.append(el('td', c[2] > 0 ? fmt(v, c[2]) : c[2] < 0 ? (v ? Number(v).toExponential(1) : '0') : (v === null ? '' : v)));
      });
      return tr;
    }));
  }

  function sortBy(i, th) {
    const key = COLUMNS[i][0];
    const order = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    document.querySelectorAll('#top-table th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', order);
    const sign = order === 'ascending' ? 1 : -1;
    tableRows.sort(function (a, b) { return sign * ((a[key] === null ? -Infinity : a[key]) - (b[key] === null ? -Infinity : b[key])) || a.rank - b.rank; });
    fillTable();
  }

  function runLabel(r) {
    return 'run ' + r.id + ', ' + r.started_at + ', space ' + r.space + ', ' + r.gpu + ' (' + r.status +
      (r.timing_method === 'graphs' ? ', timed as CUDA graphs' : '') + ')';
  }

  function funnel(run) {
    document.getElementById('run-line').textContent = run ? runLabel(run) + '; fingerprint ' + run.fingerprint +
      ', template ' + run.template_hash + (run.funnel_from === 'rows' ? '; this run recorded no counts: its stored rows' : '') : '';
    if (!run || !run.funnel.length) return empty('chart-funnel', 'No counts for this run.');
    const values = run.funnel.map(function (s, i) { return Object.assign({i: i}, s); });
    const kinds = ['all', 'dropped', 'pruned', 'failed', 'kept', 'info'];
    draw('chart-funnel', {
      data: {values: values}, width: 700, height: {step: 22},
      encoding: {y: {field: 'step', type: 'nominal', sort: values.map(function (v) { return v.step; }), title: null},
                 x: {field: 'count', type: 'quantitative', title: 'candidates'}},
      layer: [
        {mark: {type: 'bar', height: {band: 0.75}}, encoding: {
          color: {field: 'kind', type: 'nominal', title: null, scale: {domain: kinds,
            range: ['#57606a', '#c2c8d0', AMBER, RED, GREEN, '#9aa7b4']}},
          tooltip: [{field: 'step'}, {field: 'count', format: ','}]}},
        {mark: {type: 'text', align: 'left', dx: 4, fontSize: 11}, encoding: {text: {field: 'count', format: ','}}},
      ],
    });
  }

  function history() {
    if (!data.history.length) empty('chart-history', 'No verified result in this database.');
    else {
      const values = data.history.map(function (h) {
        return Object.assign({series: h.gpu + ' \u00b7 ' + h.shape, run: 'run ' + h.run_id}, h);
      });
      const order = Array.from(new Set(values.map(function (v) { return v.run; })));
      draw('chart-history', {
        data: {values: values}, width: 760, height: 180,
        mark: {type: 'line', point: {filled: true, size: 50}, interpolate: 'step-after'},
        encoding: {x: {field: 'run', type: 'ordinal', sort: order, title: 'run, oldest first', axis: {labelAngle: 0}},
                   y: {field: 'percent', type: 'quantitative', scale: {zero: false}, title: 'best % of cuBLAS',
                       axis: {format: '.1f'}},
                   color: {field: 'series', type: 'nominal', title: null},
                   detail: {field: 'fingerprint'},
                   tooltip: [{field: 'series', title: 'GPU and shape'}, {field: 'run'}, {field: 'started_at', title: 'started'},
                             {field: 'percent', title: '% of cuBLAS'}, {field: 'tflops', title: 'TFLOP/s'},
                             {field: 'fingerprint'}, {field: 'template_hash', title: 'template'}]},
      });
    }
    if (!data.runs.length) return empty('chart-time', 'No runs.');
    const names = {wall_seconds: 'wall', compile_seconds: 'compile (CPU, summed)', timed_seconds: 'timed launches (GPU)'};
    const values = [];
    data.runs.forEach(function (r) {
      Object.keys(names).forEach(function (k) {
        if (r[k] !== null) values.push({run: 'run ' + r.id, what: names[k], seconds: r[k], space: r.space, started_at: r.started_at});
      });
    });
    draw('chart-time', {
      data: {values: values}, width: 760, height: {step: 12},
      encoding: {y: {field: 'run', type: 'nominal', sort: null, title: null},
                 yOffset: {field: 'what', type: 'nominal', sort: Object.values(names)},
                 x: {field: 'seconds', type: 'quantitative', title: 'seconds'},
                 color: {field: 'what', type: 'nominal', title: null, sort: Object.values(names),
                         scale: {range: ['#57606a', BLUE, GREEN]}}},
      layer: [
        {mark: 'bar', encoding: {tooltip: [{field: 'run'}, {field: 'space'}, {field: 'started_at', title: 'started'},
          {field: 'what'}, {field: 'seconds', format: '.2f'}]}},
        {mark: {type: 'text', align: 'left', dx: 3, fontSize: 10}, encoding: {text: {field: 'seconds', format: '.1f'}}},
      ],
    });
  }

  function pickers() {
    const shapes = document.getElementById('pick-shape');
    data.best.forEach(function (b, i) {
      const o = el('option', shapeLabel(b) + (b.stale ? ' (stale)' : ''));
      o.value = String(i);
      shapes.append(o);
    });
    shapes.addEventListener('change', function () { shapeSections(Number(shapes.value)); });
    const runs = document.getElementById('pick-run');
    const newestFirst = data.runs.slice().reverse();
    newestFirst.forEach(function (r) {
      const o = el('option', runLabel(r));
      o.value = String(r.id);
      runs.append(o);
    });
    // The newest run that timed something, else the newest.
    const timed = function (r) { return r.funnel.some(function (s) { return s.step === 'timed' && s.count > 0; }); };
    const first = newestFirst.find(timed) || newestFirst[0];
    if (first) runs.value = String(first.id);
    runs.addEventListener('change', function () {
      funnel(data.runs.find(function (r) { return String(r.id) === runs.value; }));
    });
    return first;
  }

  header();
  const firstRun = pickers();
  bestChart();
  shapeSections(0);
  funnel(firstRun);
  history();
  // For tests and scripts: settles once every chart has been drawn.
  window.reportReady = Promise.all(pending);
})();
