package main

import (
	"fmt"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Names in the kubeconfig: the "admin" context is current; "user" is the unprivileged identity.
const (
	clusterName  = "gpu-events-harness"
	adminContext = "admin"
	userContext  = "user"
)

// writeKubeconfig writes a kubeconfig for server with both identities of the token file.
func writeKubeconfig(path, server string, c *credentials) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[clusterName] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: c.caPEM}
	cfg.AuthInfos[adminUser] = &clientcmdapi.AuthInfo{Token: c.adminToken}
	cfg.AuthInfos[plainUser] = &clientcmdapi.AuthInfo{Token: c.userToken}
	cfg.Contexts[adminContext] = &clientcmdapi.Context{Cluster: clusterName, AuthInfo: adminUser, Namespace: "default"}
	cfg.Contexts[userContext] = &clientcmdapi.Context{Cluster: clusterName, AuthInfo: plainUser, Namespace: "default"}
	cfg.CurrentContext = adminContext
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		return fmt.Errorf("writing kubeconfig %s: %w", path, err)
	}
	return nil
}
