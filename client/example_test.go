package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"testing"

	"github.com/ipatlas/ipatlas/client"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// exampleServerURL starts an ipatlas API on the small test snapshot for the example; in
// real use this is the address of your server.
func exampleServerURL() (url string, stop func()) {
	ts := serve(exampleTB{}, datasettest.Snapshot(exampleTB{}))
	return ts.URL, ts.Close
}

func Example() {
	baseURL, stop := exampleServerURL()
	defer stop()

	c, err := client.New(baseURL, "ipa_TESTKEYTESTKEYTESTKEYTES")
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	ie, err := c.CountryInfo(ctx, client.CountryInfoRequest{Code: "IRL", LocalityLanguage: "de"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ie.Name, ie.Currency.Code, ie.CallingCode)

	_, err = c.CountryInfo(ctx, client.CountryInfoRequest{Code: "XX"})
	var apiErr *client.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Status, apiErr.Description)
	}
	// Output:
	// Irland EUR 353
	// 404 No country has the code "XX". Use an ISO 3166-1 alpha-2 (IE), alpha-3 (IRL) or numeric (372) code.
}

// exampleTB lets the example use the test helpers outside a test: a helper that fails
// ends the example.
type exampleTB struct{ testing.TB }

func (exampleTB) Helper()           {}
func (exampleTB) Cleanup(func())    {}
func (exampleTB) Fatal(args ...any) { fmt.Fprintln(os.Stderr, args...); os.Exit(1) }
