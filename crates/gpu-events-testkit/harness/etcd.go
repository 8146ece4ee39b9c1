package main

import (
	"fmt"
	"net/url"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// startEtcd runs a single-member etcd in this process with its data in dir, serving clients and
// peers on free ports of 127.0.0.1 (port 0: the kernel picks, so parallel runs cannot collide).
func startEtcd(dir string) (*embed.Etcd, error) {
	cfg := embed.NewConfig()
	cfg.Name = "harness"
	cfg.Dir = dir
	cfg.LogLevel = "error"
	local := url.URL{Scheme: "http", Host: "127.0.0.1:0"}
	cfg.ListenClientUrls = []url.URL{local}
	cfg.AdvertiseClientUrls = []url.URL{local}
	cfg.ListenPeerUrls = []url.URL{local}
	cfg.AdvertisePeerUrls = []url.URL{local}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.ListenMetricsUrls = nil

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, fmt.Errorf("starting etcd in %s: %w", dir, err)
	}
	select {
	case <-e.Server.ReadyNotify():
		return e, nil
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("etcd failed while starting: %w", err)
	case <-time.After(time.Minute):
		e.Close()
		return nil, fmt.Errorf("etcd not ready after a minute (data in %s)", dir)
	}
}
