// Command geolocate prints where an address is, how sure the service is, and who carries it:
//
//	go run ./client/examples/geolocate -key KEY 8.8.8.8
//
// KEY is the key 'make run' prints; -url names another server than the one it starts.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"

	"github.com/ipatlas/ipatlas/client"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "ipatlas server")
	key := flag.String("key", "", "API key (sent in the x-service-key header)")
	flag.Parse()

	c, err := client.New(*url, *key)
	if err != nil {
		log.Fatal(err)
	}
	geo, err := c.IPGeolocationWithConfidence(context.Background(),
		client.GeolocationRequest{IP: flag.Arg(0), LocalityLanguage: "de"}) // no IP: the caller's
	var apiErr *client.Error
	if errors.As(err, &apiErr) {
		log.Fatalf("ipatlas answered %d: %s", apiErr.Status, apiErr.Description) // 405: not a valid IP
	} else if err != nil {
		log.Fatal(err) // network, timeout
	}
	// Country is nil, and Carriers empty, where the data has none (a bogon such as 10.0.0.1).
	country, asn := "-", "-"
	if geo.Country != nil {
		country = geo.Country.Name
	}
	if len(geo.Network.Carriers) > 0 {
		asn = geo.Network.Carriers[0].ASN
	}
	fmt.Println(country, geo.Confidence, asn)
}
