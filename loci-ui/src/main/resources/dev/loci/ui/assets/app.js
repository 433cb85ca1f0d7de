// Loci web UI behaviour, loaded from /ui/assets (the CSP allows no inline script).
(function () {
  "use strict";
  var token = document.querySelector('meta[name="csrf-token"]');
  // Every htmx request carries the session's CSRF token, as every form does.
  document.body.addEventListener("htmx:configRequest", function (e) {
    if (token) { e.detail.headers["X-CSRF-Token"] = token.getAttribute("content"); }
  });
  // Charts: a <canvas class="chart" data-chart='{...}'> holds its Chart.js configuration as data.
  function drawCharts(root) {
    if (typeof window.Chart === "undefined") { return; }
    root.querySelectorAll("canvas.chart").forEach(function (c) {
      if (c.dataset.drawn) { return; }
      var cfg = JSON.parse(c.dataset.chart);
      cfg.options = cfg.options || {};
      cfg.options.animation = false;
      cfg.options.maintainAspectRatio = false;
      new window.Chart(c, cfg);
      c.dataset.drawn = "true";
    });
  }
  drawCharts(document);
  document.body.addEventListener("htmx:afterSwap", function (e) { drawCharts(e.target); });
  // Confirmation for forms that say what they are about to do.
  document.body.addEventListener("submit", function (e) {
    var msg = e.target.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) { e.preventDefault(); }
  });
})();
