package graphql

import (
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// checkSelections refuses, before validation, the documents whose shape would make
// validation expensive or crash it. gqlparser's rule that fields sharing a response name
// can be merged (OverlappingFieldsCanBeMerged) compares those fields pairwise, fields
// merged in from inline fragments and fragment spreads included, and the sub-selections of
// each pair in turn, so its work grows with the square of their number: 1950 repeats of
// one field, within MaxTokens and MaxCost, took seconds. The same rule re-walks a fragment
// once per path to it when fields with sub-selections are compared along the way
// (exponential in a chain of fragments that each spread the next twice), and for ever
// through a fragment cycle: a stack overflow, which kills the process.
//
// The walk here costs at most MaxSelections steps. It refuses fragment cycles first; then,
// with every fragment expanded where it is used, it merges the selection sets of fields that
// share a response name, as execution does, and counts per merged set the fields of each
// response name (MaxSameName) and the fragment spreads (MaxSpreads), and over the whole
// document every selection (MaxSelections). Every operation and every fragment definition
// is a starting point, since the validator checks each.
func checkSelections(doc *ast.QueryDocument) (*gqlerror.Error, string) {
	if err := fragmentCycle(doc); err != nil {
		return err, codeValidation
	}
	m := selectionMeter{doc: doc, left: MaxSelections}
	for _, op := range doc.Operations {
		if le := m.merged([]ast.SelectionSet{op.SelectionSet}); le != nil {
			return gqlerror.ErrorPosf(le.pos, "%s", le.msg), le.code
		}
	}
	for _, f := range doc.Fragments {
		if le := m.merged([]ast.SelectionSet{f.SelectionSet}); le != nil {
			return gqlerror.ErrorPosf(le.pos, "%s", le.msg), le.code
		}
	}
	return nil, ""
}

const codeSelections = "SELECTION_LIMIT_EXCEEDED"

// selectionMeter walks merged selection sets; left is what remains of MaxSelections.
type selectionMeter struct {
	doc  *ast.QueryDocument
	left int
}

// merged checks the selection set made of sets (the sub-selections of fields that share a
// response name), then the merged sets below it, depth first.
func (m *selectionMeter) merged(sets []ast.SelectionSet) *limitError {
	var (
		names    []string                          // response names, in order of first use
		count    = map[string]int{}                // fields per response name
		children = map[string][]ast.SelectionSet{} // their sub-selections
		spreads  int
	)
	var collect func(ss ast.SelectionSet) *limitError
	collect = func(ss ast.SelectionSet) *limitError {
		for _, sel := range ss {
			if m.left--; m.left < 0 {
				return &limitError{code: codeSelections, pos: sel.GetPosition(),
					msg: fmt.Sprintf("The query is too large once its fragments are expanded: it has more than %d selections (fields, inline fragments and fragment spreads), counting a fragment's selections once per use. Select fewer fields, spread fewer fragments, or split the query.", MaxSelections)}
			}
			switch s := sel.(type) {
			case *ast.Field:
				name := s.Alias
				if name == "" {
					name = s.Name
				}
				if count[name]++; count[name] == 1 {
					names = append(names, name)
				} else if count[name] > MaxSameName {
					return &limitError{code: codeSelections, pos: s.Position,
						msg: fmt.Sprintf("The query selects %q more than %d times in one selection set, counting fields merged in from fragments; at most %d fields may share a response name. Select each field once, or give the fields different aliases.", name, MaxSameName, MaxSameName)}
				}
				if len(s.SelectionSet) > 0 {
					children[name] = append(children[name], s.SelectionSet)
				}
			case *ast.InlineFragment:
				if le := collect(s.SelectionSet); le != nil {
					return le
				}
			case *ast.FragmentSpread:
				if spreads++; spreads > MaxSpreads {
					return &limitError{code: codeSelections, pos: s.Position,
						msg: fmt.Sprintf("The query spreads more than %d fragments into one selection set, counting a fragment once per use and the fragments it spreads; at most %d are allowed. Spread each fragment once, or merge fragments.", MaxSpreads, MaxSpreads)}
				}
				// Cycles were refused; an unknown fragment is the validator's to report.
				if f := m.doc.Fragments.ForName(s.Name); f != nil {
					if le := collect(f.SelectionSet); le != nil {
						return le
					}
				}
			}
		}
		return nil
	}
	for _, ss := range sets {
		if le := collect(ss); le != nil {
			return le
		}
	}
	for _, name := range names {
		if sub := children[name]; len(sub) > 0 {
			if le := m.merged(sub); le != nil {
				return le
			}
		}
	}
	return nil
}

// fragmentCycle reports a fragment that spreads itself, directly or through others, with
// the validator's message: the validator would say so too, but only after its merging rule
// has recursed through the cycle until the stack overflows.
func fragmentCycle(doc *ast.QueryDocument) *gqlerror.Error {
	const (
		onPath = 1
		done   = 2
	)
	state := map[string]int{}
	var path []string // fragments being walked, outermost first
	var visit func(name string, at *ast.Position) *gqlerror.Error
	var walk func(ss ast.SelectionSet) *gqlerror.Error
	walk = func(ss ast.SelectionSet) *gqlerror.Error {
		for _, sel := range ss {
			var err *gqlerror.Error
			switch s := sel.(type) {
			case *ast.Field:
				err = walk(s.SelectionSet)
			case *ast.InlineFragment:
				err = walk(s.SelectionSet)
			case *ast.FragmentSpread:
				err = visit(s.Name, s.Position)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	visit = func(name string, at *ast.Position) *gqlerror.Error {
		switch state[name] {
		case done:
			return nil
		case onPath:
			i := len(path) - 1
			for path[i] != name {
				i--
			}
			via := ""
			if rest := path[i+1:]; len(rest) > 0 {
				via = " via " + strings.Join(rest, ", ")
			}
			return gqlerror.ErrorPosf(at, "Cannot spread fragment %q within itself%s.", name, via)
		}
		f := doc.Fragments.ForName(name)
		if f == nil {
			return nil
		}
		state[name] = onPath
		path = append(path, name)
		err := walk(f.SelectionSet)
		path = path[:len(path)-1]
		state[name] = done
		return err
	}
	for _, f := range doc.Fragments {
		if err := visit(f.Name, f.Position); err != nil {
			return err
		}
	}
	return nil
}
