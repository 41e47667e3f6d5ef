#!/bin/sh
# The club's keys for its broker (docs/club.md): the ACL with the club's id written in, the password file
# with the accounts "table" (the key every table of the club holds) and "league", and with a broker host
# name (or address) also a club CA and TLS certificates for the broker, the tables and the league.
#
#   hardware/club/club-keys.sh CLUB FOLDER [BROKER_HOST ...]
#
# The keys are random unless TABLE_KEY and LEAGUE_KEY are set; they are written to FOLDER/keys.txt
# (readable by its owner only) for the organiser to enter at the tables (companion run --club
# mqtt://table:KEY@HOST:1883) and the league. Then, on Debian or Raspberry Pi OS:
#
#   sudo install -d /etc/mosquitto/minotaur
#   sudo install -m 640 -g mosquitto FOLDER/acl FOLDER/passwords /etc/mosquitto/minotaur/
#   sudo install -m 644 hardware/club/mosquitto.conf /etc/mosquitto/conf.d/minotaur.conf
#   (with TLS also: FOLDER/ca.crt FOLDER/broker.crt FOLDER/broker.key into /etc/mosquitto/minotaur/)
#   sudo systemctl restart mosquitto
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 CLUB FOLDER [BROKER_HOST ...]" >&2
    exit 2
fi
club=$1
folder=$2
shift 2
if ! printf '%s' "$club" | grep -Eqx '[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?'; then
    echo "$0: club '$club' is not an id: 1 to 32 lower-case letters, digits and dashes" >&2
    exit 2
fi
if ! command -v mosquitto_passwd >/dev/null; then
    echo "$0: mosquitto_passwd is missing: sudo apt install mosquitto" >&2
    exit 1
fi
here=$(dirname "$0")
umask 077
mkdir -p "$folder"

sed "s/CLUB/$club/g" "$here/acl" > "$folder/acl"
table_key=${TABLE_KEY:-$(openssl rand -hex 16)}
league_key=${LEAGUE_KEY:-$(openssl rand -hex 16)}
rm -f "$folder/passwords"
mosquitto_passwd -c -b "$folder/passwords" table "$table_key"
mosquitto_passwd -b "$folder/passwords" league "$league_key"
printf 'club %s\ntable %s\nleague %s\n' "$club" "$table_key" "$league_key" > "$folder/keys.txt"
echo "$folder: acl, passwords and keys.txt for club $club"

[ $# -eq 0 ] && exit 0

# TLS: a CA of the club's own (ten years), which signs the broker's certificate (valid for every name
# given) and one client certificate per user of the ACL, its common name being the user.
names=""
for host in "$@"; do
    if printf '%s' "$host" | grep -Eqx '[0-9]+(\.[0-9]+){3}|.*:.*'; then
        names="$names${names:+,}IP:$host"
    else
        names="$names${names:+,}DNS:$host"
    fi
done
openssl req -x509 -new -newkey rsa:2048 -nodes -days 3650 -subj "/CN=minotaur $club CA" \
    -keyout "$folder/ca.key" -out "$folder/ca.crt" 2>/dev/null
sign() { # name common_name [extension]
    openssl req -new -newkey rsa:2048 -nodes -subj "/CN=$2" \
        -keyout "$folder/$1.key" -out "$folder/$1.csr" 2>/dev/null
    if [ $# -gt 2 ]; then
        printf '%s\n' "$3" > "$folder/$1.ext"
        openssl x509 -req -in "$folder/$1.csr" -CA "$folder/ca.crt" -CAkey "$folder/ca.key" \
            -CAcreateserial -days 3650 -extfile "$folder/$1.ext" -out "$folder/$1.crt" 2>/dev/null
        rm "$folder/$1.ext"
    else
        openssl x509 -req -in "$folder/$1.csr" -CA "$folder/ca.crt" -CAkey "$folder/ca.key" \
            -CAcreateserial -days 3650 -out "$folder/$1.crt" 2>/dev/null
    fi
    rm "$folder/$1.csr"
}
sign broker "$1" "subjectAltName=$names"
sign table table
sign league league
echo "$folder: ca.crt, broker.crt/key (for $names), table.crt/key and league.crt/key"
echo "keep ca.key away from the tables: whoever holds it can make the club's keys"
