// Package useragent parses User-Agent strings with the ua-parser project's regular
// expressions (uap-core's regexes.yaml, compiled into github.com/ua-parser/uap-go), and
// Accept-Language headers, into the fields the commercial service's user-agent-info and
// client-info answers carry.
//
// Parsing a string the parser has not seen runs several hundred regular expressions over it
// (about 1.3 ms on the development machine, BenchmarkParse), so Parser keeps the answers of
// the strings it saw last in a bounded LRU cache: the same browser asks again and again.
package useragent

import (
	"fmt"
	"strings"

	lru "github.com/hashicorp/golang-lru"
	"github.com/ua-parser/uap-go/uaparser"
)

// MaxLen is the longest User-Agent string Parse reads, in bytes. Browsers' strings are a few
// hundred bytes; parsing one the cache lacks takes about 1.7 ms at 120 bytes and 4 ms at
// 512 (BenchmarkParse), growing with the length, and the cache holds the strings.
const MaxLen = 512

// DefaultCacheSize is the number of distinct strings a Parser remembers when New is given 0.
const DefaultCacheSize = 4096

// Info is what a User-Agent string says, in the commercial service's terms. Strings the
// regexes cannot tell are "Other" (Device, Family), as ua-parser writes them, or empty
// (the version fields).
type Info struct {
	// Device is ua-parser's device family ("iPhone", "Samsung SM-G991B", "Spider"), or
	// "Desktop" where it names no device and the operating system is a desktop one (Windows,
	// Mac OS X, Linux, ...), as the commercial service writes it; "Other" where neither tells.
	Device string
	// OS is the operating system's family and version as ua-parser writes them ("Windows
	// 10", "iOS 17.1", "Other").
	OS string
	// UserAgent is the browser or program's family and version ("Chrome 76.0.3809").
	UserAgent string
	// Family is the browser or program alone ("Chrome", "Mobile Safari", "Googlebot").
	Family string
	// Major, Minor and Patch are its version's parts; empty where the string has none.
	Major, Minor, Patch string
	// IsSpider reports whether ua-parser's device family is "Spider": a crawler or bot.
	IsSpider bool
	// IsMobile reports whether the operating system is a mobile one (iOS, Android, ...) or
	// the browser family is a mobile build ("Chrome Mobile", "Mobile Safari"): phones and
	// tablets alike, since ua-parser does not tell them apart.
	IsMobile bool
	// Display is OS, Device and UserAgent in one line ("Windows 10 Desktop Chrome
	// 76.0.3809"), as the commercial service's userAgentDisplay.
	Display string
}

// Parser parses User-Agent strings. It is safe for concurrent use; build one with New.
type Parser struct {
	uap *uaparser.Parser
	// cache maps string → Info. It is a 2Q cache: strings seen once (a flood of made-up
	// ones) pass through a queue of their own and cannot push out those that come back.
	cache *lru.TwoQueueCache
}

// New compiles the regular expressions (about 60 ms) and returns a Parser that remembers
// the answers for cacheSize distinct strings (DefaultCacheSize when 0).
func New(cacheSize int) (*Parser, error) {
	if cacheSize <= 0 {
		cacheSize = DefaultCacheSize
	}
	// uap-go's own caches would only hold the parts this package caches whole; it takes no
	// size below 1.
	uap, err := uaparser.New(uaparser.WithCacheSize(1))
	if err != nil {
		return nil, fmt.Errorf("useragent: compile the ua-parser regexes: %w", err)
	}
	cache, err := lru.New2Q(cacheSize)
	if err != nil {
		return nil, fmt.Errorf("useragent: cache: %w", err)
	}
	return &Parser{uap: uap, cache: cache}, nil
}

// Parse returns what s says. s must be at most MaxLen bytes; a longer one is cut there (the
// API refuses such input before it gets here).
func (p *Parser) Parse(s string) Info {
	info, _ := p.ParseIf(s, nil)
	return info
}

// ParseIf is Parse where a string the cache lacks is parsed only if afford (nil: always)
// agrees; otherwise it reports false. Callers that anyone may call without a key bound what
// unseen strings can cost them with it.
func (p *Parser) ParseIf(s string, afford func() bool) (Info, bool) {
	if len(s) > MaxLen {
		s = s[:MaxLen]
	}
	if v, ok := p.cache.Get(s); ok {
		return v.(Info), true
	}
	if afford != nil && !afford() {
		return Info{}, false
	}
	info := p.parse(s)
	p.cache.Add(strings.Clone(s), info) // the key must not pin a request's larger buffer
	return info, true
}

// parse is Parse without the cache: the reference the cache is tested against.
func (p *Parser) parse(s string) Info {
	// uap-go's Parse runs the three in goroutines under a lock that only its sorting option
	// (off) needs; one after the other costs the same CPU and no scheduling.
	ua, os, dev := p.uap.ParseUserAgent(s), p.uap.ParseOs(s), p.uap.ParseDevice(s)
	info := Info{
		Device:    dev.Family,
		OS:        os.ToString(),
		UserAgent: ua.ToString(),
		Family:    ua.Family,
		Major:     ua.Major,
		Minor:     ua.Minor,
		Patch:     ua.Patch,
		IsSpider:  dev.Family == "Spider",
		IsMobile:  mobileOS[os.Family] || strings.Contains(ua.Family, "Mobile"),
	}
	if info.Device == "Other" && desktopOS[os.Family] {
		info.Device = "Desktop"
	}
	info.Display = info.OS + " " + info.Device + " " + info.UserAgent
	return info
}

// mobileOS are uap-core's operating system families of phones and tablets.
var mobileOS = map[string]bool{
	"iOS": true, "Android": true, "Windows Phone": true, "Windows Mobile": true,
	"BlackBerry OS": true, "BlackBerry Tablet OS": true, "Symbian OS": true, "Symbian^3": true,
	"KaiOS": true, "Firefox OS": true, "Tizen": true, "Sailfish": true, "webOS": true,
	"Ubuntu Touch": true, "HarmonyOS": true, "Bada": true, "MeeGo": true, "Maemo": true,
	"Symbian^3 Anna": true, "Symbian^3 Belle": true, "Nokia Series 40": true,
	"Nokia Series 30 Plus": true, "Brew MP": true,
}

// desktopOS are uap-core's operating system families of desktop and laptop computers.
var desktopOS = map[string]bool{
	"Windows": true, "Mac OS X": true, "Mac OS": true, "Linux": true, "Ubuntu": true, "Debian": true,
	"Fedora": true, "Red Hat": true, "SUSE": true, "openSUSE": true, "Mint": true,
	"Chrome OS": true, "FreeBSD": true, "OpenBSD": true, "NetBSD": true, "Solaris": true,
	"Arch Linux": true, "Gentoo": true, "Mageia": true, "CentOS": true, "Slackware": true,
}
