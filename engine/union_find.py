"""Disjoint sets of board nodes: which places a seat's routes link (tickets, stations, board modules)."""

from __future__ import annotations


class UnionFind:
    __slots__ = ("parent",)

    def __init__(self, n: int = 0):
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def copy(self) -> UnionFind:
        uf = UnionFind()
        uf.parent = self.parent[:]
        return uf
