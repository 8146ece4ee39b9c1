package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"time"
)

// waitReady polls /readyz, then the "default" namespace (made by a controller after start), as the
// admin, until both answer 200 or ctx ends. It sends nil on success, else the last failure.
func waitReady(ctx context.Context, server string, c *credentials) <-chan error {
	out := make(chan error, 1)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.caPEM)
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	get := func(path string) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, server+path, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.adminToken)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		return nil
	}
	go func() {
		last := fmt.Errorf("no answer yet")
		for {
			if last = get("/readyz"); last == nil {
				if last = get("/api/v1/namespaces/default"); last == nil {
					out <- nil
					return
				}
			}
			select {
			case <-ctx.Done():
				out <- last
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return out
}
