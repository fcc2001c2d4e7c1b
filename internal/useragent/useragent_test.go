package useragent

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// corpus is real User-Agent strings of browsers, apps, crawlers and tools.
var corpus = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/76.0.3809.132 Safari/537.36",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 13; SM-S901B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"curl/8.5.0",
	"",
	"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
	"Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
	"Go-http-client/1.1",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"Mozilla/5.0 (Android 13; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0",
	"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
}

// TestParse: the fields of well-known strings, as uap-core's regexes and this package's
// device and mobile rules give them.
func TestParse(t *testing.T) {
	p, err := New(0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, ua string
		want     Info
	}{
		{"the reference's example", corpus[0], Info{Device: "Desktop", OS: "Windows 10", UserAgent: "Chrome 76.0.3809", Family: "Chrome",
			Major: "76", Minor: "0", Patch: "3809", Display: "Windows 10 Desktop Chrome 76.0.3809"}},
		{"iPhone", corpus[1], Info{Device: "iPhone", OS: "iOS 17.1", UserAgent: "Mobile Safari 17.1", Family: "Mobile Safari",
			Major: "17", Minor: "1", IsMobile: true, Display: "iOS 17.1 iPhone Mobile Safari 17.1"}},
		{"Android phone", corpus[2], Info{Device: "Samsung SM-S901B", OS: "Android 13", UserAgent: "Chrome Mobile 112.0.0", Family: "Chrome Mobile",
			Major: "112", Minor: "0", Patch: "0", IsMobile: true, Display: "Android 13 Samsung SM-S901B Chrome Mobile 112.0.0"}},
		{"crawler", corpus[3], Info{Device: "Spider", OS: "Other", UserAgent: "Googlebot 2.1", Family: "Googlebot",
			Major: "2", Minor: "1", IsSpider: true, Display: "Other Spider Googlebot 2.1"}},
		{"tool", corpus[4], Info{Device: "Other", OS: "Other", UserAgent: "curl 8.5.0", Family: "curl",
			Major: "8", Minor: "5", Patch: "0", Display: "Other Other curl 8.5.0"}},
		{"empty", "", Info{Device: "Other", OS: "Other", UserAgent: "Other", Family: "Other", Display: "Other Other Other"}},
		{"Linux desktop", corpus[6], Info{Device: "Desktop", OS: "Ubuntu", UserAgent: "Firefox 120.0", Family: "Firefox",
			Major: "120", Minor: "0", Display: "Ubuntu Desktop Firefox 120.0"}},
		{"tablet", corpus[7], Info{Device: "iPad", OS: "iOS 16.6", UserAgent: "Mobile Safari 16.6", Family: "Mobile Safari",
			Major: "16", Minor: "6", IsMobile: true, Display: "iOS 16.6 iPad Mobile Safari 16.6"}},
		{"Mac: ua-parser names the device", corpus[8], Info{Device: "Mac", OS: "Mac OS X 10.15.7", UserAgent: "Safari 17.0", Family: "Safari",
			Major: "17", Minor: "0", Display: "Mac OS X 10.15.7 Mac Safari 17.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, p.Parse(tt.ua)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseCacheMatchesUncached: the cached parser, under eviction (a cache far smaller
// than the strings) and from many goroutines, answers what parsing afresh answers.
func TestParseCacheMatchesUncached(t *testing.T) {
	p, err := New(8)
	if err != nil {
		t.Fatal(err)
	}
	ref := map[string]Info{}
	var inputs []string
	for i, s := range corpus {
		inputs = append(inputs, s, s+" extra/"+strconv.Itoa(i))
	}
	for _, s := range inputs {
		ref[s] = p.parse(s)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range 300 {
				s := inputs[rng.IntN(len(inputs))]
				if got := p.Parse(s); got != ref[s] {
					t.Errorf("%q: cached %+v, uncached %+v", s, got, ref[s])
					return
				}
			}
		})
	}
	wg.Wait()
	if n := p.cache.Len(); n > 8 {
		t.Errorf("the cache holds %d strings, more than its 8", n)
	}
}

// TestParseCutsAtMaxLen: a longer string is read as its first MaxLen bytes.
func TestParseCutsAtMaxLen(t *testing.T) {
	p, err := New(0)
	if err != nil {
		t.Fatal(err)
	}
	long := corpus[0] + strings.Repeat(" x", MaxLen)
	if got, want := p.Parse(long), p.parse(long[:MaxLen]); got != want {
		t.Errorf("%+v, want %+v", got, want)
	}
}

// FuzzParse: any string parses, the cached answer is the uncached one, and the answer's
// fields agree with one another.
func FuzzParse(f *testing.F) {
	for _, s := range corpus {
		f.Add(s)
	}
	f.Add("Mozilla/5.0 (Linux; U; Android \xff; \x00) Spider")
	p, err := New(64)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := p.Parse(s)
		if len(s) > MaxLen {
			s = s[:MaxLen]
		}
		if want := p.parse(s); got != want {
			t.Fatalf("cached %+v, uncached %+v", got, want)
		}
		if got.Device == "" || got.OS == "" || got.Family == "" || got.IsSpider != (got.Device == "Spider") ||
			got.Display != got.OS+" "+got.Device+" "+got.UserAgent {
			t.Fatalf("%q: %+v", s, got)
		}
	})
}

// BenchmarkParse measures a string the parser has not seen (every iteration a new one)
// against one it has.
func BenchmarkParse(b *testing.B) {
	p, err := New(0)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("uncached", func(b *testing.B) {
		i := 0
		for b.Loop() {
			p.Parse(corpus[0] + strconv.Itoa(i))
			i++
		}
	})
	b.Run("uncached-1KiB", func(b *testing.B) {
		long := corpus[0] + strings.Repeat(" x", MaxLen)[:MaxLen-len(corpus[0])-8]
		i := 0
		for b.Loop() {
			p.Parse(long + strconv.Itoa(i))
			i++
		}
	})
	b.Run("cached", func(b *testing.B) {
		p.Parse(corpus[0])
		for b.Loop() {
			p.Parse(corpus[0])
		}
	})
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			if _, err := New(0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
