#!/usr/bin/env bash
# Makes what mutual TLS between trigrep's frontends and backends needs (deploy/README.md, "TLS"):
# a private CA, one backend certificate that names the backends' Service DNS names, and one
# frontend client certificate, as PEM files with PKCS#8 keys (P-256). Only openssl is needed.
#
#   deploy/make-certs.sh [--namespace NS] [--service NAME] [--san DNS:host|IP:addr]... [--days N] [OUT_DIR]
#
# OUT_DIR defaults to deploy/k8s/tls, where deploy/k8s/kustomization.yaml makes the Secrets
# trigrep-backend-tls and trigrep-frontend-tls from it. It writes:
#   ca.crt                 the CA certificate both sides trust
#   ca.key                 the CA's key: needed only to make more certificates; keep it out of the cluster
#   backend.crt/.key       presented by every backend; also a client certificate, for its own /readyz ping
#   frontend.crt/.key      presented by frontends (and ./trigrep search) to backends
# The backend certificate names NAME, NAME.NS, NAME.NS.svc, NAME.NS.svc.cluster.local, the same
# with "*." for each pod (trigrep-backend-0.trigrep-backend, ...), localhost and 127.0.0.1 (for
# kubectl port-forward), and every --san. An existing CA in OUT_DIR is kept: running the script
# again re-issues the leaf certificates under it.
set -euo pipefail

namespace=trigrep service=trigrep-backend days=825 out=deploy/k8s/tls
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --namespace) namespace="$2"; shift 2 ;;
    --service) service="$2"; shift 2 ;;
    --san) extra+=("$2"); shift 2 ;;
    --days) days="$2"; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    -*) echo "make-certs.sh: unknown option $1" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done

command -v openssl >/dev/null || { echo "make-certs.sh: openssl is needed (Debian package openssl)" >&2; exit 1; }
mkdir -p "$out"
umask 077
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# One explicit configuration, so the result does not depend on the system's openssl.cnf.
cat >"$tmp/openssl.cnf" <<CNF
[req]
distinguished_name = dn
prompt = no
[dn]
CN = trigrep
[ca]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
CNF

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

if [ ! -f "$out/ca.crt" ] || [ ! -f "$out/ca.key" ]; then
  key "$out/ca.key"
  openssl req -x509 -new -config "$tmp/openssl.cnf" -extensions ca -key "$out/ca.key" -subj "/CN=trigrep CA" \
    -days "$days" -sha256 -out "$out/ca.crt"
fi

# issue NAME CN EXTENDED_KEY_USAGE [SAN]: NAME.key and NAME.crt signed by the CA.
issue() {
  local name="$1" cn="$2" eku="$3" san="${4:-}"
  key "$out/$name.key"
  openssl req -new -config "$tmp/openssl.cnf" -key "$out/$name.key" -subj "/CN=$cn" -out "$tmp/$name.csr"
  {
    echo "basicConstraints = critical, CA:FALSE"
    echo "keyUsage = critical, digitalSignature"
    echo "extendedKeyUsage = $eku"
    echo "authorityKeyIdentifier = keyid"
    [ -n "$san" ] && echo "subjectAltName = $san"
  } >"$tmp/$name.ext"
  openssl x509 -req -in "$tmp/$name.csr" -CA "$out/ca.crt" -CAkey "$out/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
    -days "$days" -sha256 -extfile "$tmp/$name.ext" -out "$out/$name.crt" 2>/dev/null
}

sans="DNS:$service,DNS:$service.$namespace,DNS:$service.$namespace.svc,DNS:$service.$namespace.svc.cluster.local"
sans+=",DNS:*.$service,DNS:*.$service.$namespace,DNS:*.$service.$namespace.svc,DNS:*.$service.$namespace.svc.cluster.local"
sans+=",DNS:localhost,IP:127.0.0.1"
for s in "${extra[@]}"; do sans+=",$s"; done

issue backend "$service" "serverAuth, clientAuth" "$sans"
issue frontend trigrep-frontend "clientAuth"
chmod 644 "$out/ca.crt" "$out/backend.crt" "$out/frontend.crt"
echo "make-certs.sh: CA, backend and frontend certificates in $out (valid $days days)" >&2
