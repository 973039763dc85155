#!/usr/bin/perl
# RewriteMap "prg:" helper (httpd-vhosts.conf): reads an old shop product id per
# line, answers the path of the item in the new store, or NULL when unknown.
use strict;
use warnings;

$| = 1;    # httpd waits for each answer: no buffering
my %moved = (1001 => 'garden/hose-25m', 1002 => 'garden/rake');
while (my $id = <STDIN>) {
    chomp $id;
    print exists $moved{$id} ? "$moved{$id}\n" : "NULL\n";
}
