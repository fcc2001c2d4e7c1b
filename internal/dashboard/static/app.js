// ipatlas dashboard: copy button and API explorer. No build step, no dependencies.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("button[data-copy]").forEach(function (b) {
    b.addEventListener("click", function () {
      var input = document.getElementById(b.dataset.copy);
      var status = document.getElementById("copy-status");
      input.select();
      var done = function () { if (status) status.textContent = "Copied to the clipboard."; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  });

  // The explorer keeps the key for the tab's session; logging out forgets it.
  document.querySelectorAll('form[action="/logout"]').forEach(function (f) {
    f.addEventListener("submit", function () { sessionStorage.removeItem("ipatlas-key"); });
  });

  var form = document.getElementById("explorer");
  if (!form) return;
  var key = document.getElementById("ex-key");
  var ep = document.getElementById("ex-endpoint");
  var q = document.getElementById("ex-query");
  var out = document.getElementById("ex-result");
  var status = document.getElementById("ex-status");
  key.value = sessionStorage.getItem("ipatlas-key") || "";
  ep.addEventListener("change", function () { q.value = ep.selectedOptions[0].dataset.example || ""; });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    sessionStorage.setItem("ipatlas-key", key.value.trim());
    var url = ep.value + (q.value ? "?" + q.value.replace(/^\?/, "") : "");
    status.textContent = "…";
    out.textContent = "GET " + url;
    fetch(url, { headers: { "x-service-key": key.value.trim() }, credentials: "omit" })
      .then(function (res) {
        return res.text().then(function (body) {
          status.textContent = res.status + " " + res.statusText;
          try { body = JSON.stringify(JSON.parse(body), null, 2); } catch (err) { /* not JSON */ }
          out.textContent = body;
        });
      })
      .catch(function (err) { status.textContent = "failed"; out.textContent = String(err); });
  });
});
