package useragent

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"sync"

	"github.com/ipatlas/ipatlas/internal/dbfile"
	"github.com/ua-parser/uap-go/uaparser"
)

// The regexes are compiled into the binary from the Go module, not read from the snapshot:
// go.mod, not data update, updates them, and every snapshot is served with this binary's.
const (
	// ModulePath and ModuleVersion name the module; TestModuleVersion keeps the version
	// equal to go.mod's.
	ModulePath    = "github.com/ua-parser/uap-go"
	ModuleVersion = "v0.0.0-20260529044130-17c35e68e58c"
	// SourceName is the source's name in the lists of sources.
	SourceName = "uap-core"
)

// Source describes the regexes as a source, in the form of a snapshot's sources, so that
// /data/sources, /docs and data info credit them beside the snapshot's own. uap-core's
// regexes.yaml (which uap-go embeds with its comments and blank lines stripped) is
// Apache-2.0, © Google Inc.; uap-go's code is MIT, © Yihuan Zhou. It is worked out once
// (a digest and a scan of the regexes), and shared: callers must not modify it.
var Source = sync.OnceValue(source)

func source() dbfile.SourceInfo {
	sum := sha256.Sum256(uaparser.DefinitionYaml)
	return dbfile.SourceInfo{
		Name:        SourceName,
		Version:     ModuleVersion,
		Licence:     "Apache-2.0 (uap-core regexes); MIT (uap-go)",
		Attribution: "User-Agent parsing with the ua-parser project's regular expressions (github.com/ua-parser/uap-core, Apache License 2.0, Copyright 2009 Google Inc.) through uap-go (github.com/ua-parser/uap-go, MIT, Copyright 2013 Yihuan Zhou).",
		Origin:      "go module " + ModulePath + "@" + ModuleVersion,
		Status:      "ok",
		Note:        "Compiled into the binary, not the snapshot (regexes.yaml as uap-go embeds it, sha256 " + hex.EncodeToString(sum[:]) + "); go.mod, not data update, updates it.",
		Records: map[string]int{
			"user-agent-patterns": strings.Count(section(uaparser.DefinitionYaml, "user_agent_parsers:"), "- regex:"),
			"os-patterns":         strings.Count(section(uaparser.DefinitionYaml, "os_parsers:"), "- regex:"),
			"device-patterns":     strings.Count(section(uaparser.DefinitionYaml, "device_parsers:"), "- regex:"),
		},
		Feeds: []string{"user-agent-info", "client-info (device, os, userAgent, family, version*, isSpider, isMobile, userAgentDisplay)"},
	}
}

// section is the part of the regexes file under the top-level key: up to the next line
// that starts with neither a space nor "-" (the next key).
func section(yaml []byte, key string) string {
	_, rest, ok := strings.Cut("\n"+string(yaml), "\n"+key)
	if !ok {
		return ""
	}
	for i := 0; i+1 < len(rest); i++ {
		if rest[i] == '\n' && rest[i+1] != ' ' && rest[i+1] != '-' {
			return rest[:i]
		}
	}
	return rest
}

// WithSource returns md with Source among its sources, in name order (replacing a source
// of the same name, should a snapshot ever hold one). md is not modified.
func WithSource(md dbfile.Metadata) dbfile.Metadata {
	src := Source()
	out := slices.DeleteFunc(slices.Clone(md.Sources), func(s dbfile.SourceInfo) bool { return s.Name == src.Name })
	i, _ := slices.BinarySearchFunc(out, src.Name, func(s dbfile.SourceInfo, name string) int { return strings.Compare(s.Name, name) })
	md.Sources = slices.Insert(out, i, src)
	return md
}
