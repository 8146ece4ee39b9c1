package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Identities in the token file. The admin is in system:masters (every right, no RBAC needed); the
// user has no bindings, so tests can grant exactly the rights they mean to check.
const (
	adminUser = "gpu-events-admin"
	plainUser = "gpu-events-user"
)

// credentials are the files kube-apiserver reads and what the kubeconfig needs.
type credentials struct {
	caPEM        []byte
	certFile     string
	keyFile      string
	saPublicKey  string
	saSigningKey string
	tokenFile    string
	adminToken   string
	userToken    string
}

// writeCredentials makes a fresh CA with a serving certificate for 127.0.0.1 and localhost, a
// service-account signing key pair and a static token file, all under dir.
func writeCredentials(dir string) (*credentials, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	c := &credentials{
		certFile:     filepath.Join(dir, "apiserver.crt"),
		keyFile:      filepath.Join(dir, "apiserver.key"),
		saPublicKey:  filepath.Join(dir, "sa.pub"),
		saSigningKey: filepath.Join(dir, "sa.key"),
		tokenFile:    filepath.Join(dir, "tokens.csv"),
	}

	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	caTemplate := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "gpu-events-harness-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * 365 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("creating the CA certificate: %w", err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	c.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})

	servingKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	servingTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * 365 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:     []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
	}
	servingDER, err := x509.CreateCertificate(rand.Reader, servingTemplate, caCert, &servingKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("creating the serving certificate: %w", err)
	}
	if err := writePEM(c.certFile, "CERTIFICATE", servingDER); err != nil {
		return nil, err
	}
	if err := writeECKey(c.keyFile, servingKey); err != nil {
		return nil, err
	}

	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	if err := writeECKey(c.saSigningKey, saKey); err != nil {
		return nil, err
	}
	saPub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return nil, err
	}
	if err := writePEM(c.saPublicKey, "PUBLIC KEY", saPub); err != nil {
		return nil, err
	}

	if c.adminToken, err = randomToken(); err != nil {
		return nil, err
	}
	if c.userToken, err = randomToken(); err != nil {
		return nil, err
	}
	// token,user,uid,"group1,group2" as kube-apiserver's --token-auth-file reads it.
	tokens := fmt.Sprintf("%s,%s,%s,\"system:masters\"\n%s,%s,%s\n",
		c.adminToken, adminUser, adminUser, c.userToken, plainUser, plainUser)
	if err := os.WriteFile(c.tokenFile, []byte(tokens), 0o600); err != nil {
		return nil, fmt.Errorf("writing %s: %w", c.tokenFile, err)
	}
	return c, nil
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

func writeECKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(path, "EC PRIVATE KEY", der)
}

func writePEM(path, kind string, der []byte) error {
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
