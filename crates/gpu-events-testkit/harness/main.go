// Command harness runs a real kube-apiserver (in-process, from the k8s.io/kubernetes module) on an
// embedded etcd, both on 127.0.0.1, for gpu-events tests and for anyone who wants a throwaway
// control plane. It writes a kubeconfig, prints one line starting with "ready " on stdout when
// /readyz answers ok, and stays in the foreground until SIGTERM or SIGINT, then stops both cleanly.
// Logs go to stderr. Flags after "--" are passed to kube-apiserver as they are (they win).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/server/v3/embed"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "harness: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	var opts options
	flag.StringVar(&opts.kubeconfig, "kubeconfig", "", "write the kubeconfig here (default: DATA-DIR/kubeconfig)")
	flag.StringVar(&opts.dataDir, "data-dir", "", "directory for etcd data, certificates and keys (default: a new temporary directory, removed on exit)")
	flag.DurationVar(&opts.eventTTL, "event-ttl", time.Hour, "kube-apiserver --event-ttl: how long Events are kept")
	flag.IntVar(&opts.port, "port", 0, "secure port on 127.0.0.1 (0: a free port)")
	flag.DurationVar(&opts.startTimeout, "start-timeout", 3*time.Minute, "give up if /readyz is not ok by then")
	flag.BoolVar(&opts.stopOnStdinEOF, "stop-on-stdin-eof", false, "also stop when stdin closes (a parent that dies without a signal closes it), and read commands from stdin, one a line: \"compact\" compacts etcd at its current revision and prints \"compacted revision=N\"")
	flag.Parse()
	opts.extraArgs = flag.Args()

	if opts.dataDir == "" {
		dir, err := os.MkdirTemp("", "gpu-events-apiserver-")
		if err != nil {
			return fmt.Errorf("creating a data directory: %w", err)
		}
		defer os.RemoveAll(dir)
		opts.dataDir = dir
	} else if err := os.MkdirAll(opts.dataDir, 0o700); err != nil {
		return fmt.Errorf("creating data directory %s: %w", opts.dataDir, err)
	}
	if opts.kubeconfig == "" {
		opts.kubeconfig = filepath.Join(opts.dataDir, "kubeconfig")
	}

	// The first signal stops the servers gracefully; a second one exits at once.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		sig := <-signals
		fmt.Fprintf(os.Stderr, "harness: %v, stopping\n", sig)
		cancel()
		<-signals
		fmt.Fprintln(os.Stderr, "harness: second signal, exiting now")
		os.Exit(1)
	}()
	// A parent that died took the read end of stdout and stderr with it: without this, the next log line would
	// kill the harness with SIGPIPE before it cleans up; with it, such writes fail quietly.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	commands := make(chan string)
	if opts.stopOnStdinEOF {
		go func() {
			// Each line is a command (see serve); the end of stdin stops the harness.
			lines := bufio.NewScanner(os.Stdin)
			for lines.Scan() {
				select {
				case commands <- strings.TrimSpace(lines.Text()):
				case <-ctx.Done():
				}
			}
			fmt.Fprintln(os.Stderr, "harness: stdin closed, stopping")
			cancel()
		}()
	}

	return serve(ctx, opts, commands)
}

// options are the harness's own flags.
type options struct {
	kubeconfig     string
	dataDir        string
	eventTTL       time.Duration
	port           int
	startTimeout   time.Duration
	stopOnStdinEOF bool
	extraArgs      []string
}

func serve(ctx context.Context, opts options, commands <-chan string) error {
	creds, err := writeCredentials(filepath.Join(opts.dataDir, "pki"))
	if err != nil {
		return err
	}

	etcd, err := startEtcd(filepath.Join(opts.dataDir, "etcd"))
	if err != nil {
		return err
	}
	defer etcd.Close()

	api, err := startAPIServer(ctx, opts, creds, etcd.Clients[0].Addr().String())
	if err != nil {
		return err
	}
	server := fmt.Sprintf("https://%s", api.addr)
	if err := writeKubeconfig(opts.kubeconfig, server, creds); err != nil {
		return err
	}

	readyCtx, cancel := context.WithTimeout(ctx, opts.startTimeout)
	defer cancel()
	select {
	case err := <-api.done:
		return fmt.Errorf("kube-apiserver stopped before it was ready: %v", err)
	case err := <-etcd.Err():
		return fmt.Errorf("etcd stopped before kube-apiserver was ready: %v", err)
	case err := <-waitReady(readyCtx, server, creds):
		if err != nil {
			if ctx.Err() != nil {
				return nil // stopped by a signal while starting
			}
			return fmt.Errorf("kube-apiserver at %s not ready after %s: %w", server, opts.startTimeout, err)
		}
	}
	fmt.Printf("ready server=%s kubeconfig=%s data-dir=%s\n", server, opts.kubeconfig, opts.dataDir)

	for {
		select {
		case command := <-commands:
			if err := runCommand(ctx, etcd, command); err != nil {
				fmt.Printf("error command=%q %v\n", command, err)
			}
		case err := <-api.done:
			if ctx.Err() == nil {
				return fmt.Errorf("kube-apiserver stopped: %v", err)
			}
			if err != nil && !errors.Is(err, context.Canceled) {
				return fmt.Errorf("kube-apiserver did not stop cleanly: %w", err)
			}
			fmt.Fprintln(os.Stderr, "harness: stopped")
			return nil
		case err := <-etcd.Err():
			return fmt.Errorf("etcd stopped: %v", err)
		}
	}
}

// runCommand runs one command read from stdin, answering on stdout.
//
//   - "compact": compacts etcd at its current revision, as kube-apiserver's own compactor does every
//     --etcd-compaction-interval (but now, and up to the latest write), then prints "compacted revision=N". A
//     watch or an Exact list from a resourceVersion below N is then answered 410 Expired, and so is a
//     continue token from before.
func runCommand(ctx context.Context, etcd *embed.Etcd, command string) error {
	switch command {
	case "compact":
		rev := etcd.Server.KV().Rev()
		req := &etcdserverpb.CompactionRequest{Revision: rev, Physical: true}
		if _, err := etcd.Server.Compact(ctx, req); err != nil {
			return fmt.Errorf("compacting etcd at revision %d: %w", rev, err)
		}
		fmt.Printf("compacted revision=%d\n", rev)
		return nil
	case "":
		return nil
	default:
		return fmt.Errorf("unknown command (known: compact)")
	}
}
