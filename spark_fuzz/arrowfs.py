"""Small files of a campaign (manifest, reproducers, reports) through pyarrow's file systems.

The Parquet tables go where Spark writes them (any URI its Hadoop layer knows); the small
files go to the same place, written here by the process that drives the campaign with
:mod:`pyarrow.fs` (local disk, HDFS, S3, GCS, Azure), never through a Spark JVM, so the
same code serves ``local[N]``, a cluster and Spark Connect (where the driver JVM is on
another machine).  Plain Python and pyarrow: no Spark.

``root`` keeps the spelling Spark is given (``file:/abs/dir`` for a local directory,
``s3a://bucket/x``, ``hdfs://nn:8020/x``); :meth:`ArrowFS.path` builds such URIs, and each
operation maps them to pyarrow's file system and path (``s3a://`` and ``s3n://`` are
pyarrow's ``s3://``).  With Spark Connect a local ``--out`` must be a directory the server
sees at the same path (the same machine, or a shared mount); otherwise give a URI both reach.
"""

from __future__ import annotations

import os
from typing import Any

from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError

#: Hadoop scheme -> pyarrow scheme, where they differ.
PYARROW_SCHEMES = {"s3a": "s3", "s3n": "s3", "gcs": "gs"}
LOCAL_PREFIXES = ("file://", "file:")


def is_local(uri: str) -> bool:
    """A local path or ``file:`` URI (the only kind Spark and this process may resolve differently)."""
    return "://" not in uri or uri.startswith("file:")


def local_path(uri: str) -> str:
    """``file:/x/y`` or ``file:///x/y`` -> ``/x/y`` (for messages and replay commands); other URIs unchanged."""
    for prefix in LOCAL_PREFIXES:
        if uri.startswith(prefix):
            return uri[len(prefix) :]
    return uri


class ArrowFS:
    """File operations under ``root`` (a path or URI)."""

    def __init__(self, root: str) -> None:
        from pyarrow import fs as pafs

        self._pafs = pafs
        root = root.rstrip("/") or "/"
        if is_local(root):
            base = os.path.abspath(os.path.expanduser(local_path(root)))
            self._fs: Any = pafs.LocalFileSystem()
            self._base = base
            #: ``root`` as Spark is given it: ``file:/home/me/cfconform-campaign``.
            self.root = f"file:{base}"
        else:
            scheme, rest = root.split("://", 1)
            arrow_uri = f"{PYARROW_SCHEMES.get(scheme.lower(), scheme.lower())}://{rest}"
            try:
                self._fs, self._base = pafs.FileSystem.from_uri(arrow_uri)
            except Exception as err:  # an unknown scheme, a missing libhdfs, bad credentials
                first = (str(err).strip().splitlines() or [type(err).__name__])[0]
                allowed = f"a local directory or a URI pyarrow.fs can open: file, hdfs, s3a/s3, gs, abfs ({first})"
                raise ConfigurationError("--out", root, allowed, UNKNOWN_FIELD) from None
            self._base = self._base.rstrip("/")
            self.root = root

    def path(self, *parts: str) -> str:
        return "/".join([self.root, *(p.strip("/") for p in parts if p)])

    def _p(self, uri: str) -> str:
        """The pyarrow path of a URI under ``root``."""
        if uri == self.root:
            return self._base
        if not uri.startswith(self.root + "/"):
            raise ValueError(f"{uri} is not under {self.root}")
        return f"{self._base}/{uri[len(self.root) + 1 :]}"

    def _type(self, uri: str) -> Any:
        return self._fs.get_file_info(self._p(uri)).type

    def exists(self, uri: str) -> bool:
        return self._type(uri) != self._pafs.FileType.NotFound

    def list_names(self, uri: str, *, dirs_only: bool = False) -> list[str]:
        """Names (not paths) of the entries of directory ``uri``; empty if it does not exist."""
        if self._type(uri) != self._pafs.FileType.Directory:
            return []
        infos = self._fs.get_file_info(self._pafs.FileSelector(self._p(uri), allow_not_found=True))
        return sorted(i.base_name for i in infos if not dirs_only or i.type == self._pafs.FileType.Directory)

    def read_text(self, uri: str) -> str:
        with self._fs.open_input_stream(self._p(uri), compression=None) as stream:
            return stream.read().decode("utf-8")

    def write_text(self, uri: str, text: str) -> None:
        """Write ``text`` to ``uri`` atomically where the file system renames atomically (temp + move)."""
        target = self._p(uri)
        parent, name = target.rsplit("/", 1)
        self._fs.create_dir(parent, recursive=True)
        temp = f"{parent}/.{name}.tmp"
        with self._fs.open_output_stream(temp, compression=None) as stream:
            stream.write(text.encode("utf-8"))
        if not isinstance(self._fs, self._pafs.LocalFileSystem) and self.exists(uri):
            self._fs.delete_file(target)  # (a local rename replaces the target atomically; HDFS's refuses to)
        self._fs.move(temp, target)

    def delete(self, uri: str, recursive: bool = True) -> bool:
        kind = self._type(uri)
        if kind == self._pafs.FileType.NotFound:
            return False
        if kind == self._pafs.FileType.Directory:
            if not recursive and self.list_names(uri):
                raise OSError(f"{uri} is not empty")
            self._fs.delete_dir(self._p(uri))
        else:
            self._fs.delete_file(self._p(uri))
        return True

    def mkdirs(self, uri: str) -> None:
        self._fs.create_dir(self._p(uri), recursive=True)

    def local_path(self, uri: str) -> str:
        return local_path(uri)
