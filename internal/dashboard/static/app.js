// ipatlas dashboard: copy button and API explorer. No build step, no dependencies.
"use strict";

// The explorer's text handling, on window.ipatlasExplorer so that the browser test can
// check it against Go's.
var ipatlasExplorer = (function () {
  // indent lays out a JSON text two spaces a level, as Go's json.Indent does: from the
  // text, numbers and escapes as they were sent (JSON.parse would round numbers past 2^53,
  // such as an IPv6 prefix's size). Text that is not JSON comes back as it was.
  function indent(text) {
    try { JSON.parse(text); } catch (err) { return text; }
    var out = "", depth = 0, inString = false;
    var nl = function () { return "\n" + "  ".repeat(depth); };
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (inString) {
        out += c;
        if (c === "\\") out += text[++i];
        else if (c === '"') inString = false;
        continue;
      }
      switch (c) {
        case '"': inString = true; out += c; break;
        case " ": case "\t": case "\n": case "\r": break;
        case "{": case "[":
          // An empty object or array stays on one line.
          var j = i + 1;
          while (" \t\n\r".indexOf(text[j]) >= 0) j++;
          if (text[j] === (c === "{" ? "}" : "]")) { out += c + text[j]; i = j; break; }
          depth++; out += c + nl(); break;
        case "}": case "]": depth--; out += nl() + c; break;
        case ",": out += "," + nl(); break;
        case ":": out += ": "; break;
        default: out += c;
      }
    }
    return out;
  }

  // pairs splits a query string as typed (name=value&…, a leading ? allowed) into
  // [name, value] pairs; a name without = has the value null.
  function pairs(query) {
    return query.replace(/^\?/, "").split("&").filter(function (p) { return p !== ""; }).map(function (p) {
      var eq = p.indexOf("=");
      return eq < 0 ? [p, null] : [p.slice(0, eq), p.slice(eq + 1)];
    });
  }

  // escape percent-encodes what a query value cannot hold as typed (+, #, spaces, …) but
  // keeps %XX escapes, so that +353… and %2B353… both reach the server as +353….
  function escape(s) {
    return s.split(/(%[0-9A-Fa-f]{2})/).map(function (part, i) {
      return i % 2 ? part : encodeURIComponent(part);
    }).join("");
  }

  // buildQuery turns the query field into the query string that is sent; it throws a
  // URIError on text that cannot be encoded (a lone surrogate).
  function buildQuery(query) {
    return pairs(query).map(function (p) {
      return escape(p[0]) + (p[1] === null ? "" : "=" + escape(p[1]));
    }).join("&");
  }

  // carry returns example (the newly chosen endpoint's query) with the values of the
  // parameters it shares with query (what was typed for the previous one), so that an
  // address or a language typed once survives a change of endpoint.
  function carry(query, example) {
    var typed = {};
    pairs(query).forEach(function (p) { typed[p[0]] = p[1]; });
    return pairs(example).map(function (p) {
      var v = Object.prototype.hasOwnProperty.call(typed, p[0]) ? typed[p[0]] : p[1];
      return p[0] + (v === null ? "" : "=" + v);
    }).join("&");
  }

  return { indent: indent, buildQuery: buildQuery, carry: carry };
})();
window.ipatlasExplorer = ipatlasExplorer;

document.addEventListener("DOMContentLoaded", function () {
  // Without JavaScript these controls would do nothing, so they are hidden until now.
  document.querySelectorAll("[data-needs-js]").forEach(function (el) { el.hidden = false; });

  document.querySelectorAll("button[data-copy]").forEach(function (b) {
    b.addEventListener("click", function () {
      var input = document.getElementById(b.dataset.copy);
      var status = document.getElementById("copy-status");
      var say = function (ok) {
        if (status) status.textContent = ok ? "Copied to the clipboard." : "Copying failed: select the key and copy it yourself.";
      };
      input.select();
      var fallback = function () { say(document.execCommand("copy")); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(function () { say(true); }, fallback);
      } else {
        fallback();
      }
    });
  });

  // The explorer keeps the key for the tab's session, with the account it belongs to: a
  // key just shown (after sign-up or regeneration) replaces the one it had, and a page of
  // another account, or of none (a session that ended, a log-out), forgets it.
  var account = document.body.dataset.account || "";
  var saved = null;
  try { saved = JSON.parse(sessionStorage.getItem("ipatlas-key")); } catch (err) { /* an old format */ }
  if (!saved || saved.account !== account) sessionStorage.removeItem("ipatlas-key");
  var saveKey = function (k) { sessionStorage.setItem("ipatlas-key", JSON.stringify({ account: account, key: k })); };
  var shown = document.getElementById("key");
  if (shown && account) saveKey(shown.value);
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
  key.value = saved && saved.account === account ? saved.key : "";
  ep.addEventListener("change", function () {
    q.value = ipatlasExplorer.carry(q.value, ep.selectedOptions[0].dataset.example || "");
  });
  var inFlight = null;
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (inFlight) inFlight.abort(); // a slower earlier answer must not land over this one
    var mine = inFlight = new AbortController();
    saveKey(key.value.trim());
    var query;
    try { query = ipatlasExplorer.buildQuery(q.value); } catch (err) {
      status.textContent = "not sent";
      out.textContent = "The parameters hold text that cannot be sent: " + String(err);
      return;
    }
    var url = ep.value + (query ? "?" + query : "");
    status.textContent = "…";
    out.textContent = "GET " + url;
    fetch(url, { headers: { "x-service-key": key.value.trim() }, credentials: "omit", signal: mine.signal })
      .then(function (res) {
        return res.text().then(function (body) {
          if (mine !== inFlight) return; // a later request was sent meanwhile
          status.textContent = "HTTP " + res.status;
          out.textContent = "GET " + url + "\n\n" + ipatlasExplorer.indent(body);
        });
      })
      .catch(function (err) {
        if (mine !== inFlight) return;
        status.textContent = "failed";
        out.textContent = "GET " + url + "\n\n" + String(err);
      });
  });
});
