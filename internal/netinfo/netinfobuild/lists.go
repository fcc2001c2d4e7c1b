package netinfobuild

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/netip"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/netinfo/internal/rirstats"
)

// maxLine bounds a line of the text sources.
const maxLine = 1 << 16

// files returns the regular files of fsys, at any depth, whose base name match reports
// true, sorted.
func files(fsys fs.FS, match func(base string) bool) ([]string, error) {
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && match(path.Base(p)) {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// rirFile is what one delegated file held.
type rirFile struct {
	Name     string
	Registry string // from the header, e.g. "apnic"
	Date     string // data date, "yyyy-mm-dd"
	Records  int
	Skipped  int // malformed lines, unknown statuses or registries
	// Declared is the header's record count and Lines the resource lines read: fewer for
	// a file cut short.
	Declared, Lines int
}

// asnRow is an AS block an RIR allocated or assigned.
type asnRow struct {
	First, Last uint32
	Registry    string // API name, e.g. "APNIC"
	Country     string
	Date        string // "yyyy-mm-dd" or ""
}

// rirData is what the RIR statistics files hold.
type rirData struct {
	Files  []rirFile
	Blocks []rirBlock
	ASNs   []asnRow
	// ASNPools are the AS blocks the files list as available or reserved: the RIR holds
	// them, has not handed them out (as of the file), and has no country or date for them.
	ASNPools []asnRow
}

// rirBlock is an address block of an RIR file.
type rirBlock struct {
	First, Last netip.Addr
	Registry    string // API name
	Status      string // allocated, assigned, available or reserved
	Country     string
	FileDate    string // the data date of the block's file, "yyyy-mm-dd" or ""
}

// parseRIRDelegated reads every RIR statistics file in fsys (base name delegated-*), except
// IANA's (delegated-iana*, read by package iana for AS blocks) and signatures or checksums.
func parseRIRDelegated(fsys fs.FS) (rirData, error) {
	names, err := files(fsys, func(base string) bool {
		return strings.HasPrefix(base, "delegated-") && !strings.HasPrefix(base, "delegated-iana") && !rirstats.IsChecksum(base)
	})
	if err != nil {
		return rirData{}, err
	}
	if len(names) == 0 {
		return rirData{}, errors.New("no delegated-* files")
	}
	var out rirData
	for _, name := range names {
		f, err := fsys.Open(name)
		if err != nil {
			return rirData{}, err
		}
		d, err := rirstats.Parse(f)
		f.Close()
		if err != nil {
			return rirData{}, fmt.Errorf("%s: %w", name, err)
		}
		info := rirFile{Name: name, Registry: d.Header.Registry, Date: d.Header.Date(), Skipped: d.Skipped, Declared: d.Header.Records, Lines: d.Lines}
		for _, r := range d.Records {
			reg := rirstats.RegistryName(r.Registry)
			switch r.Status {
			case "allocated", "assigned", "available", "reserved":
			default:
				reg = ""
			}
			if reg == "" {
				info.Skipped++
				continue
			}
			info.Records++
			if r.Type == "asn" {
				if r.Status == "allocated" || r.Status == "assigned" {
					out.ASNs = append(out.ASNs, asnRow{r.FirstASN, r.LastASN, reg, r.Country, r.Date})
				} else {
					out.ASNPools = append(out.ASNPools, asnRow{First: r.FirstASN, Last: r.LastASN, Registry: reg})
				}
				continue
			}
			out.Blocks = append(out.Blocks, rirBlock{r.First, r.Last, reg, r.Status, r.Country, info.Date})
		}
		out.Files = append(out.Files, info)
	}
	return out, nil
}

// fullBogons is the Team Cymru full bogon lists (IPv4 and IPv6), one per file.
type fullBogons struct {
	Lists   []bogonList
	Skipped int // lines that are not prefixes
}

// bogonList is one file of full bogons.
type bogonList struct {
	Prefixes []netip.Prefix
	Updated  time.Time // from the "# last updated <unix time>" header; zero if none
}

// parseFullBogons reads the fullbogons-ipv4*/fullbogons-ipv6* lists (one prefix a line,
// # comments) in fsys.
func parseFullBogons(fsys fs.FS) (fullBogons, error) {
	names, err := files(fsys, func(base string) bool { return strings.HasPrefix(base, "fullbogons-") })
	if err != nil {
		return fullBogons{}, err
	}
	if len(names) == 0 {
		return fullBogons{}, errors.New("no fullbogons-* files")
	}
	var out fullBogons
	prefixes := 0
	for _, name := range names {
		f, err := fsys.Open(name)
		if err != nil {
			return fullBogons{}, err
		}
		var l bogonList
		l, err = out.read(f)
		f.Close()
		if err != nil {
			return fullBogons{}, fmt.Errorf("%s: %w", name, err)
		}
		out.Lists = append(out.Lists, l)
		prefixes += len(l.Prefixes)
	}
	if prefixes == 0 {
		return fullBogons{}, errors.New("no bogon prefixes")
	}
	return out, nil
}

func (b *fullBogons) read(r io.Reader) (bogonList, error) {
	var l bogonList
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "# last updated "); ok {
			if sec, err := strconv.ParseInt(strings.Fields(rest + " x")[0], 10, 64); err == nil && sec > 0 && sec < 1<<40 {
				if t := time.Unix(sec, 0).UTC(); t.After(l.Updated) {
					l.Updated = t
				}
			}
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		p, err := netip.ParsePrefix(line)
		if err != nil || p.Addr().Zone() != "" || p.Addr().Is4In6() {
			b.Skipped++
			continue
		}
		l.Prefixes = append(l.Prefixes, p.Masked())
	}
	return l, sc.Err()
}

// asName is one line of an AS names list.
type asName struct {
	ASN     uint32
	Handle  string // e.g. "CLOUDFLARENET"
	Name    string // the long name where the list gives one, else ""
	Country string // alpha-2 or ""
}

// asNames is an AS names list.
type asNames struct {
	Names   []asName
	Date    string // from the file name (…-yyyymmdd.txt), "yyyy-mm-dd" or ""
	Skipped int    // malformed lines and reserved or private-use entries
}

// parseASNames reads the AS names lists (*.txt) in fsys, in the format of potaroo's
// autnums list as mirrored by codeout/inet-resources: "ASN<TAB>HANDLE[ Long name], CC",
// where the ASN may carry an "AS" prefix, the separator may be any white space, and the
// long name may follow " - ". Reserved and private-use entries ("-Reserved AS-") are
// skipped. Later lines win over earlier ones for the same ASN.
func parseASNames(fsys fs.FS) (asNames, error) {
	names, err := files(fsys, func(base string) bool { return strings.HasSuffix(base, ".txt") })
	if err != nil {
		return asNames{}, err
	}
	if len(names) == 0 {
		return asNames{}, errors.New("no *.txt files")
	}
	var out asNames
	for _, name := range names {
		f, err := fsys.Open(name)
		if err != nil {
			return asNames{}, err
		}
		err = out.read(f)
		f.Close()
		if err != nil {
			return asNames{}, fmt.Errorf("%s: %w", name, err)
		}
		out.Date = max(out.Date, dateInName(name))
	}
	if len(out.Names) == 0 {
		return asNames{}, errors.New("no AS names")
	}
	return out, nil
}

func (n *asNames) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if a, ok := parseASNameLine(line); ok {
			n.Names = append(n.Names, a)
		} else {
			n.Skipped++
		}
	}
	return sc.Err()
}

func parseASNameLine(line string) (asName, bool) {
	num, body, ok := strings.Cut(line, "\t")
	if !ok {
		num, body, ok = strings.Cut(line, " ")
	}
	if !ok {
		return asName{}, false
	}
	num = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(num), "AS"), "as")
	asn, err := strconv.ParseUint(num, 10, 32)
	if err != nil {
		return asName{}, false
	}
	a := asName{ASN: uint32(asn)}
	body = strings.TrimSpace(body)
	if i := strings.LastIndex(body, ", "); i >= 0 {
		if cc := body[i+2:]; len(cc) == 2 && isUpper(cc[0]) && isUpper(cc[1]) {
			body = strings.TrimSpace(body[:i])
			if cc != "ZZ" {
				a.Country = cc
			}
		}
	}
	if body == "" || body[0] == '-' || !validText(body) {
		return asName{}, false
	}
	a.Handle, a.Name = splitASName(body)
	return a, true
}

// splitASName splits a names-list entry into the AS handle and the organisation. The entry
// is usually "HANDLE Organisation" or "HANDLE - Organisation", but some hold only a name:
// "University of Innsbruck", "TIM S.A.", "A PCCW Company". The first word is taken as the
// handle only if it looks like one, as registries write them (two characters or more, no
// lower-case letter: LVLT-1, GOOGLE) and what follows is more than a company's legal form;
// otherwise the whole entry names the organisation and stands for the handle too.
func splitASName(body string) (handle, org string) {
	first, rest, ok := strings.Cut(body, " ")
	if !ok {
		return body, ""
	}
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "- "))
	if len(first) < 2 || strings.ToUpper(first) != first || legalForms[strings.ToUpper(rest)] {
		return body, body
	}
	return first, rest
}

// legalForms are company-type suffixes that end a name rather than follow a handle.
var legalForms = map[string]bool{
	"S.A.": true, "SA": true, "S.A": true, "LLC": true, "L.L.C.": true, "INC": true, "INC.": true,
	"LTD": true, "LTD.": true, "LIMITED": true, "GMBH": true, "AG": true, "KG": true, "E.V.": true,
	"S.R.L.": true, "SRL": true, "S.L.": true, "SL": true, "B.V.": true, "BV": true, "N.V.": true,
	"NV": true, "PLC": true, "CO": true, "CO.": true, "CORP": true, "CORP.": true,
	"CORPORATION": true, "S.A.S.": true, "SAS": true, "SARL": true, "S.A.R.L.": true,
	"S.P.A.": true, "SPA": true, "AB": true, "AS": true, "A/S": true, "A.S.": true, "OY": true,
	"KFT": true, "KFT.": true, "SP. Z O.O.": true, "S.A. DE C.V.": true, "LTDA": true,
	"LTDA.": true, "EIRELI": true, "PTY LTD": true, "PTY. LTD.": true, "CO., LTD.": true,
	"CO.,LTD": true, "CO.,LTD.": true, "CO., LTD": true, "JSC": true, "OOO": true, "LLP": true,
	"LP": true, "L.P.": true, "S.R.O.": true, "SRO": true, "D.O.O.": true, "DOO": true,
	"UAB": true, "SIA": true, "SAC": true, "S.A.C.": true,
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// validText reports whether s is valid UTF-8 without control characters and fits a string
// of the section.
func validText(s string) bool {
	if len(s) > 1024 {
		return false
	}
	for _, r := range s {
		if r == '\uFFFD' || r < ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// dateInName returns the yyyymmdd date at the end of a file name (before any extension) as
// "yyyy-mm-dd", or "".
func dateInName(name string) string {
	base := path.Base(name)
	base = strings.TrimSuffix(base, path.Ext(base))
	if len(base) < 8 {
		return ""
	}
	return rirstats.Date(base[len(base)-8:])
}
