package countrybuild

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/country"
)

// wbClass is the World Bank classification of one economy.
type wbClass struct {
	Region string // e.g. "Europe & Central Asia"
	Income string // e.g. "High income"; empty where the World Bank gives none (Venezuela, FY2023)
}

// wbWorkbook is what Build takes from a CLASS.xlsx workbook.
type wbWorkbook struct {
	File      string             // the workbook read, e.g. "CLASS_FY2023.xlsx"
	Modified  time.Time          // docProps/core.xml dcterms:modified; zero if absent
	Economies map[string]wbClass // by World Bank code, which is ISO alpha-3 except for a few
}

// parseWorldBankClass reads the newest CLASS*.xlsx in fsys (the World Bank's "List of
// economies" workbook) with archive/zip and encoding/xml: shared strings, the workbook's sheet
// list and relationships, and the sheet itself. Rows with a region are economies; the
// aggregates that follow them (regions, income groups) have none.
func parseWorldBankClass(fsys fs.FS) (wbWorkbook, error) {
	names, err := fs.Glob(fsys, "CLASS*.xlsx")
	if err != nil || len(names) == 0 {
		return wbWorkbook{}, fmt.Errorf("no CLASS*.xlsx: %w", errors.Join(err, fs.ErrNotExist))
	}
	slices.Sort(names)
	name := names[len(names)-1] // CLASS_FY2023 < CLASS_FY2024: the newest fiscal year
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return wbWorkbook{}, err
	}
	x, err := openXLSX(b)
	if err != nil {
		return wbWorkbook{}, fmt.Errorf("%s: %w", name, err)
	}
	rows, err := x.sheet("List of economies")
	if err != nil {
		return wbWorkbook{}, fmt.Errorf("%s: %w", name, err)
	}
	if len(rows) == 0 {
		return wbWorkbook{}, fmt.Errorf("%s: empty sheet", name)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[strings.TrimSpace(h)] = i
	}
	for _, h := range []string{"Code", "Region", "Income group"} {
		if _, ok := col[h]; !ok {
			return wbWorkbook{}, fmt.Errorf("%s: no column %q", name, h)
		}
	}
	cell := func(row []string, h string) string {
		if i := col[h]; i < len(row) {
			return strings.TrimSpace(row[i])
		}
		return ""
	}
	out := wbWorkbook{File: name, Modified: x.modified, Economies: map[string]wbClass{}}
	for _, row := range rows[1:] {
		code, region := cell(row, "Code"), cell(row, "Region")
		if code == "" || region == "" {
			continue
		}
		out.Economies[code] = wbClass{Region: region, Income: cell(row, "Income group")}
	}
	if len(out.Economies) == 0 {
		return wbWorkbook{}, fmt.Errorf("%s: no economies", name)
	}
	return out, nil
}

// xlsx is an opened workbook: its parts and shared strings.
type xlsx struct {
	zr       *zip.Reader
	strings  []string
	modified time.Time
}

// maxPart bounds any one decompressed part, so a hostile workbook cannot exhaust memory.
const maxPart = 64 << 20

func openXLSX(b []byte) (*xlsx, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	x := &xlsx{zr: zr}
	var sst struct {
		SI []struct {
			T string `xml:"t"`
			R []struct {
				T string `xml:"t"`
			} `xml:"r"`
		} `xml:"si"`
	}
	switch err := x.xml("xl/sharedStrings.xml", &sst); {
	case errors.Is(err, fs.ErrNotExist): // a workbook without shared strings
	case err != nil:
		return nil, err
	}
	for _, si := range sst.SI {
		s := si.T
		for _, r := range si.R { // rich text: the runs concatenated
			s += r.T
		}
		x.strings = append(x.strings, s)
	}
	var core struct {
		Modified string `xml:"modified"`
	}
	if err := x.xml("docProps/core.xml", &core); err == nil && core.Modified != "" {
		if t, err := time.Parse(time.RFC3339, core.Modified); err == nil {
			x.modified = t.UTC()
		}
	}
	return x, nil
}

// xml decodes the part name into v.
func (x *xlsx) xml(name string, v any) error {
	f, err := x.zr.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPart+1))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(b) > maxPart {
		return fmt.Errorf("%s: larger than %d bytes", name, maxPart)
	}
	if err := xml.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// sheet returns the cells of the named worksheet as rows of strings, indexed by column.
func (x *xlsx) sheet(want string) ([][]string, error) {
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			RID  string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := x.xml("xl/workbook.xml", &wb); err != nil {
		return nil, err
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if err := x.xml("xl/_rels/workbook.xml.rels", &rels); err != nil {
		return nil, err
	}
	rid := ""
	for _, s := range wb.Sheets {
		if s.Name == want {
			rid = s.RID
		}
	}
	if rid == "" {
		return nil, fmt.Errorf("no sheet %q", want)
	}
	target := ""
	for _, r := range rels.Rels {
		if r.ID == rid {
			target = r.Target
		}
	}
	if target == "" {
		return nil, fmt.Errorf("sheet %q: no relationship %q", want, rid)
	}
	if strings.HasPrefix(target, "/") {
		target = strings.TrimPrefix(target, "/")
	} else {
		target = path.Join("xl", target)
	}

	var ws struct {
		Rows []struct {
			Cells []struct {
				Ref    string `xml:"r,attr"`
				Type   string `xml:"t,attr"`
				Value  string `xml:"v"`
				Inline string `xml:"is>t"`
			} `xml:"c"`
		} `xml:"sheetData>row"`
	}
	if err := x.xml(target, &ws); err != nil {
		return nil, err
	}
	out := make([][]string, 0, len(ws.Rows))
	for _, r := range ws.Rows {
		var row []string
		for _, c := range r.Cells {
			ci, ok := columnIndex(c.Ref)
			if !ok {
				return nil, fmt.Errorf("sheet %q: bad cell reference %q", want, c.Ref)
			}
			v := c.Value
			switch c.Type {
			case "s":
				i, err := strconv.Atoi(v)
				if err != nil || i < 0 || i >= len(x.strings) {
					return nil, fmt.Errorf("sheet %q: %s: shared string %q", want, c.Ref, v)
				}
				v = x.strings[i]
			case "inlineStr":
				v = c.Inline
			}
			for len(row) <= ci {
				row = append(row, "")
			}
			row[ci] = v
		}
		out = append(out, row)
	}
	return out, nil
}

// columnIndex returns the zero-based column of a cell reference such as "B12".
func columnIndex(ref string) (int, bool) {
	n, i := 0, 0
	for ; i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z'; i++ {
		n = n*26 + int(ref[i]-'A'+1)
		if n > 16384 { // Excel's last column, XFD
			return 0, false
		}
	}
	if i == 0 {
		return 0, false
	}
	return n - 1, true
}

// wbRegion maps a workbook region name to the World Bank API's id/iso2Code/value triple, as
// the spec's table gives it.
func wbRegion(name string) (country.WBGroup, bool) {
	var id, iso2 string
	switch name {
	case "Latin America & Caribbean":
		id, iso2 = "LCN", "ZJ"
	case "South Asia":
		id, iso2 = "SAS", "8S"
	case "Sub-Saharan Africa":
		id, iso2 = "SSF", "ZG"
	case "Europe & Central Asia":
		id, iso2 = "ECS", "Z7"
	case "Middle East & North Africa",
		// The name since FY2025, when Afghanistan and Pakistan moved in from South Asia;
		// the API kept the id.
		"Middle East, North Africa, Afghanistan & Pakistan":
		id, iso2 = "MEA", "ZQ"
	case "East Asia & Pacific":
		id, iso2 = "EAS", "Z4"
	case "North America":
		id, iso2 = "NAC", "XU"
	default:
		return country.WBGroup{}, false
	}
	return country.WBGroup{ID: id, ISO2Code: iso2, Value: name}, true
}

// wbIncome maps a workbook income group to the World Bank API's triple, as the spec's table
// gives it. An economy listed without an income group (Venezuela since FY2022) is what the
// API calls "Not classified".
func wbIncome(name string) (country.WBGroup, bool) {
	switch name {
	case "High income":
		return country.WBGroup{ID: "HIC", ISO2Code: "XD", Value: name}, true
	case "Low income":
		return country.WBGroup{ID: "LIC", ISO2Code: "XM", Value: name}, true
	case "Lower middle income":
		return country.WBGroup{ID: "LMC", ISO2Code: "XN", Value: name}, true
	case "Upper middle income":
		return country.WBGroup{ID: "UMC", ISO2Code: "XT", Value: name}, true
	case "":
		return country.WBGroup{ID: "INX", ISO2Code: "XY", Value: "Not classified"}, true
	}
	return country.WBGroup{}, false
}
