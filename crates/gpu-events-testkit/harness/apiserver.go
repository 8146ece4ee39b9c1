package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	basecompatibility "k8s.io/component-base/compatibility"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
	kubeoptions "k8s.io/kubernetes/cmd/kube-apiserver/app/options"
)

// apiServer is a running kube-apiserver: its address and a channel closed with Run's result.
type apiServer struct {
	addr string
	done <-chan error
}

// startAPIServer configures kube-apiserver from the same flags as its command line and runs it
// until ctx ends. The secure port's listener is opened here, so a free port is taken without a race.
func startAPIServer(ctx context.Context, opts options, c *credentials, etcdAddr string) (*apiServer, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", opts.port))
	if err != nil {
		return nil, fmt.Errorf("listening on 127.0.0.1:%d: %w", opts.port, err)
	}
	port := ln.Addr().(*net.TCPAddr).Port

	s := kubeoptions.NewServerRunOptions()
	fs := pflag.NewFlagSet("kube-apiserver", pflag.ContinueOnError)
	for _, set := range s.Flags().FlagSets {
		fs.AddFlagSet(set)
	}
	args := []string{
		"--etcd-servers=http://" + etcdAddr,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", port),
		"--cert-dir=" + filepath.Join(opts.dataDir, "serving"),
		"--tls-cert-file=" + c.certFile,
		"--tls-private-key-file=" + c.keyFile,
		"--token-auth-file=" + c.tokenFile,
		"--authorization-mode=Node,RBAC",
		"--service-account-key-file=" + c.saPublicKey,
		"--service-account-signing-key-file=" + c.saSigningKey,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-cluster-ip-range=10.0.0.0/24",
		"--event-ttl=" + opts.eventTTL.String(),
		// Without kube-controller-manager no "default" ServiceAccount is ever made, so the
		// ServiceAccount admission plugin would refuse every Pod; the rest of the defaults stay on
		// (NamespaceLifecycle answers 404 for a namespace that does not exist).
		"--disable-admission-plugins=ServiceAccount",
		// A single in-process apiserver: no Endpoints for the "kubernetes" Service to keep.
		"--endpoint-reconciler-type=none",
	}
	args = append(args, opts.extraArgs...)
	fmt.Fprintf(os.Stderr, "harness: kube-apiserver %s\n", strings.Join(args, " "))
	if err := fs.Parse(args); err != nil {
		ln.Close()
		return nil, fmt.Errorf("kube-apiserver flags: %w", err)
	}
	s.SecureServing.Listener = ln
	s.SecureServing.BindPort = port

	if err := s.GenericServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return nil, err
	}
	featureGate := s.GenericServerRunOptions.ComponentGlobalsRegistry.FeatureGateFor(basecompatibility.DefaultKubeComponent)
	if err := logsapi.ValidateAndApply(s.Logs, featureGate); err != nil {
		return nil, err
	}
	completed, err := s.Complete(ctx)
	if err != nil {
		return nil, fmt.Errorf("kube-apiserver options: %w", err)
	}
	if errs := completed.Validate(); len(errs) != 0 {
		return nil, fmt.Errorf("kube-apiserver options: %w", utilerrors.NewAggregate(errs))
	}

	done := make(chan error, 1)
	go func() { done <- app.Run(ctx, completed) }()
	return &apiServer{addr: ln.Addr().String(), done: done}, nil
}
