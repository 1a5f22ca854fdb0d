# SPDX-License-Identifier: GPL-2.0-only
#
# Flattens JSON (fio's --output-format=json) into one line per scalar:
#
#	jobs.0.read.bw_bytes=78643200
#	jobs.0.jobname=seq-read
#
# Strings lose their quotes and keep their escapes. Runs under busybox awk
# in the VM and mawk/gawk on the host. Tokens never span lines in fio's
# output, so input is consumed line by line (linear, not quadratic). Lines
# before the first "{" (notes some fio versions print into the output file)
# are skipped.

function path(   i, p) {
	p = ""
	for (i = 1; i <= depth; i++)
		p = p (i > 1 ? "." : "") (kind[i] == "a" ? idx[i] : key[i])
	return p
}

function scalar(v) {
	print path() "=" v
	if (kind[depth] == "o")
		wantkey[depth] = 0
}

!started && !/^[ \t]*[{]/ { next }
{ started = 1; s = $0 }
{
	while (s != "") {
		if (match(s, /^[ \t\r]+/)) {
			s = substr(s, RLENGTH + 1)
			continue
		}
		c = substr(s, 1, 1)
		if (c == "{" || c == "[") {
			depth++
			kind[depth] = (c == "{") ? "o" : "a"
			idx[depth] = 0
			wantkey[depth] = 1
			s = substr(s, 2)
		} else if (c == "}" || c == "]") {
			depth--
			s = substr(s, 2)
		} else if (c == ",") {
			if (kind[depth] == "a")
				idx[depth]++
			else
				wantkey[depth] = 1
			s = substr(s, 2)
		} else if (c == ":") {
			s = substr(s, 2)
		} else if (c == "\"") {
			if (!match(s, /^"([^"\\]|\\.)*"/))
				break
			str = substr(s, 2, RLENGTH - 2)
			s = substr(s, RLENGTH + 1)
			if (kind[depth] == "o" && wantkey[depth]) {
				key[depth] = str
				wantkey[depth] = 0
			} else {
				scalar(str)
			}
		} else {
			if (!match(s, /^[^],} \t\r]+/))
				break
			scalar(substr(s, 1, RLENGTH))
			s = substr(s, RLENGTH + 1)
		}
	}
}
