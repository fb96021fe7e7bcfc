# igb.sh from 4 combined channels (a vector per Rx and per Tx queue), for
# the policies that keep the channel count (lab612.bats)
IGB_QUEUES=4 IGB_POLICIES="latency throughput"
. /lab/igb.sh
