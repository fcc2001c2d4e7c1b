package build

import (
	"context"
	"fmt"
	"io/fs"
)

// Acquire obtains the named sources the way Update does (mirror, then cache, then network,
// as opt allows) without building a snapshot, and returns them as Sources. Tests of section
// builders use it to read real data through the real fetch path. opt.Sections is ignored.
// A source that cannot be obtained is an error, required or not: the caller asked for it.
func Acquire(ctx context.Context, opt Options, names ...string) (Sources, error) {
	need := make([]Section, 0, 1)
	need = append(need, Section{Name: "acquire", Needs: names, Build: func(context.Context, Sources, *Report) ([]byte, error) { return nil, nil }})
	opt.Sections = need
	u, err := newUpdater(opt)
	if err != nil {
		return nil, err
	}
	trees := map[string]fs.FS{}
	for _, src := range u.catalog {
		if !u.needed[src.Name] {
			continue
		}
		a := u.acquire(ctx, src)
		if a.status != StatusOK {
			return nil, fmt.Errorf("build: acquire %s: %s: %v", src.Name, a.status, a.err)
		}
		trees[src.Name] = a.fsys
	}
	return sectionSources{trees: trees, needs: names}, nil
}
