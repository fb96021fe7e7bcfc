# send.sh OUTPUT: runs on the host in the run's network namespace (lab.sh
# -H).  For each line "NPLAB-SEND ROUND" the guest prints, sends a bounded
# burst of UDP datagrams from tap0's side to the guest (10.99.0.2): 2000
# datagrams from 32 source addresses and 32 ports, so that a 2-tuple hash
# (igb hashes UDP by addresses only) spreads them.  Only inside the
# namespace: the tap is its only link.
out=$1
# QEMU creates the tap as it starts
i=0
while ! ip link show tap0 >/dev/null 2>&1 && [ $i -lt 300 ]; do sleep 0.2; i=$((i + 1)); done
ip link set tap0 up
ip addr add 10.99.0.1/24 dev tap0
for i in $(seq 10 41); do ip addr add 10.99.0.$i/32 dev tap0; done
done_rounds=0
while :; do
	n=$(grep -c '^NPLAB-SEND ' "$out" 2>/dev/null)
	if [ "${n:-0}" -gt "$done_rounds" ]; then
		done_rounds=$n
		python3 - <<'PY'
import socket
socks = []
for i in range(10, 42):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("10.99.0.%d" % i, 0))
    socks.append(s)
import time
for k in range(2000):
    if k % 100 == 0:
        time.sleep(0.05)  # a TCG guest drops what its rings cannot take
    s = socks[k % len(socks)]
    try:
        s.sendto(b"x" * 64, ("10.99.0.2", 9000 + (k // len(socks)) % 32))
    except OSError:
        pass
PY
		echo "round $n sent"
	fi
	sleep 0.2
done
