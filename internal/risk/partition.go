package risk

import (
	"encoding/binary"
	"slices"
)

// partitioner cuts the address space into intervals whose addresses are on the same set of
// lists, and numbers those sets (labels) in order of first appearance.
type partitioner struct {
	nLists int
	ids    map[string]uint32 // label key (varint list indices) → label id
	labels [][]int           // label id-1 → sorted list indices
}

func newPartitioner(nLists int) *partitioner {
	return &partitioner{nLists: nLists, ids: map[string]uint32{}}
}

// event is a list's range starting (open) or ending (the address after its last) at pos.
type event struct {
	pos  u128
	list int32
	open bool
}

// sweep returns the partition of one family's space (IPv4 if is4) for lists, whose ranges
// must be merged per list as normLists leaves them. The first interval starts at the family's
// first address; neighbours have different labels.
func (p *partitioner) sweep(lists []List, is4 bool) []interval {
	var evs []event
	for i, l := range lists {
		for _, r := range l.Ranges {
			if r.From.Is4() != is4 {
				continue
			}
			evs = append(evs, event{pos: addrU128(r.From), list: int32(i), open: true})
			if end := r.To.Next(); end.IsValid() {
				evs = append(evs, event{pos: addrU128(end), list: int32(i)})
			}
		}
	}
	slices.SortFunc(evs, func(a, b event) int { return a.pos.cmp(b.pos) })

	depth := make([]int, p.nLists) // how many open ranges of each list cover the position
	var set []int                  // lists with depth > 0, sorted
	ivs := []interval{{}}
	var key []byte
	for i := 0; i < len(evs); {
		pos := evs[i].pos
		for ; i < len(evs) && evs[i].pos == pos; i++ {
			e := evs[i]
			if e.open {
				depth[e.list]++
				if depth[e.list] == 1 {
					j, _ := slices.BinarySearch(set, int(e.list))
					set = slices.Insert(set, j, int(e.list))
				}
			} else {
				depth[e.list]--
				if depth[e.list] == 0 {
					j, _ := slices.BinarySearch(set, int(e.list))
					set = slices.Delete(set, j, j+1)
				}
			}
		}
		var label uint32
		label, key = p.intern(set, key)
		switch last := &ivs[len(ivs)-1]; {
		case pos.isZero():
			last.label = label
		case label != last.label:
			ivs = append(ivs, interval{start: pos, label: label})
		}
	}
	return ivs
}

// intern returns the label id of set (0 for the empty set), numbering new sets as they come.
// key is scratch space, returned for reuse.
func (p *partitioner) intern(set []int, key []byte) (uint32, []byte) {
	if len(set) == 0 {
		return 0, key
	}
	key = key[:0]
	for _, i := range set {
		key = binary.AppendUvarint(key, uint64(i))
	}
	if id, ok := p.ids[string(key)]; ok {
		return id, key
	}
	p.labels = append(p.labels, slices.Clone(set))
	id := uint32(len(p.labels))
	p.ids[string(key)] = id
	return id, key
}
