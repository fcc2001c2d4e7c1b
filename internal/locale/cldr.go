package locale

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

// ParentLocales reads supplemental/parentLocales.json of a cldr-core tree: the locales
// whose CLDR parent is not their truncation ("en-GB" → "en-001", "zh-Hant" → "root").
func ParentLocales(core fs.FS) (map[string]string, error) {
	var doc struct {
		Supplemental struct {
			ParentLocales struct {
				ParentLocale map[string]string `json:"parentLocale"`
			} `json:"parentLocales"`
		} `json:"supplemental"`
	}
	if err := readJSON(core, "supplemental/parentLocales.json", &doc); err != nil {
		return nil, err
	}
	return doc.Supplemental.ParentLocales.ParentLocale, nil
}

// LikelySubtags reads supplemental/likelySubtags.json of a cldr-core tree ("zh-TW" →
// "zh-Hant-TW").
func LikelySubtags(core fs.FS) (map[string]string, error) {
	var doc struct {
		Supplemental struct {
			LikelySubtags map[string]string `json:"likelySubtags"`
		} `json:"supplemental"`
	}
	if err := readJSON(core, "supplemental/likelySubtags.json", &doc); err != nil {
		return nil, err
	}
	if len(doc.Supplemental.LikelySubtags) == 0 {
		return nil, errors.New("supplemental/likelySubtags.json: empty")
	}
	return doc.Supplemental.LikelySubtags, nil
}

func readJSON(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
