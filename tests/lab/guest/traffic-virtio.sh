# traffic.sh on virtio-net with QEMU's RSS (virtio-rss:4, lab612.bats):
# throughput and latency over 4 queues, cpu on queue 0 alone
TRAFFIC_DRIVER=virtio_net TRAFFIC_POLICIES="throughput latency cpu"
. /lab/traffic.sh
