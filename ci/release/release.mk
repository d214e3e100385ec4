# release.mk - `make release` and `make deb`: a static perfverdict, the same
# bytes from the same commit.  Included by the Makefile; the process is in
# docs/releasing.md.
#
#   make release [ARCH=x86_64|aarch64]   dist/perfverdict-V-linux-ARCH.tar.gz,
#                                        dist/perfverdict_V_DEBARCH.deb, SHA256SUMS
#   make deb [ARCH=...]                  the .deb alone (and SHA256SUMS)
#   make release-check                   the slow release tests (root, network
#                                        for debootstrap once): tests/release/check.sh
#
# Reproducible: SOURCE_DATE_EPOCH is the commit's time; paths in the objects
# are relative (-ffile-prefix-map); the binary is stripped; tar sorts names
# and fixes owner, mode and mtime; gzip -n.  The build is from scratch in
# build/release-ARCH each time.  aarch64 is a cross-build with Debian's
# gcc-aarch64-linux-gnu and the :arm64 -dev packages
# (make release-deps: ci/scripts/install-deps.sh --release).

ARCH ?= x86_64
REL_TRIPLET_x86_64 = x86_64-linux-gnu
REL_TRIPLET_aarch64 = aarch64-linux-gnu
REL_DEBARCH_x86_64 = amd64
REL_DEBARCH_aarch64 = arm64
REL_TRIPLET = $(REL_TRIPLET_$(ARCH))
REL_DEBARCH = $(REL_DEBARCH_$(ARCH))
REL_HOST = $(shell uname -m)
REL_CC = $(if $(filter $(ARCH),$(REL_HOST)),cc,$(REL_TRIPLET)-gcc)
REL_STRIP = $(if $(filter $(ARCH),$(REL_HOST)),strip,$(REL_TRIPLET)-strip)
REL_BUILD = build/release-$(ARCH)
# libgsl-dev is not Multi-Arch: same in Debian 12: installing libgsl-dev:arm64
# removes the native one.  A cross-build takes its .a and .pc from the
# package unpacked (apt-get download, dpkg-deb -x) into REL_SYSROOT instead;
# the headers are the native package's (the same files).
REL_SYSROOT = $(if $(filter $(ARCH),$(REL_HOST)),,build/sysroot-$(ARCH))
# The target's .pc files only (multiarch), for a cross-build as for a native one.
REL_PKG_CONFIG = PKG_CONFIG_LIBDIR=/usr/lib/$(REL_TRIPLET)/pkgconfig$(REL_SYSROOT:%=:$(CURDIR)/%/usr/lib/$(REL_TRIPLET)/pkgconfig):/usr/share/pkgconfig pkg-config
REL_NAME = perfverdict-$(VERSION)-linux-$(ARCH)
REL_TAR = dist/$(REL_NAME).tar.gz
REL_DEB = dist/perfverdict_$(VERSION)_$(REL_DEBARCH).deb
REL_EPOCH = $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
# Static libxml2 wants ICU (35 MB); ci/release/no-icu.c stands in for its
# converters, so the binary is 4 MB (docs/releasing.md has the figures).
REL_LIBS = -lgsl -lgslcblas -ljansson -lxml2 -llzma -linih -lz -lm -pthread
REL_CFLAGS = -O2 -g0 -ffile-prefix-map=$(CURDIR)/=

release: $(REL_TAR) $(REL_DEB)
	@$(MAKE) --no-print-directory release-sums
deb: $(REL_DEB)
	@$(MAKE) --no-print-directory release-sums

# SHA256SUMS covers every asset in dist/, in C order.
release-sums:
	cd dist && LC_ALL=C ls perfverdict[-_]* | LC_ALL=C sort | xargs sha256sum > SHA256SUMS.tmp && \
		mv SHA256SUMS.tmp SHA256SUMS
	@cat dist/SHA256SUMS

$(REL_BUILD)/perfverdict: FORCE $(REL_SYSROOT:%=%/.done)
	@test -n '$(REL_TRIPLET)' || { echo 'make release: ARCH is x86_64 or aarch64, not $(ARCH)' >&2; exit 2; }
	@git diff --quiet HEAD 2>/dev/null || echo 'make release: warning: uncommitted changes are built in, but --version names only the commit $(COMMIT)' >&2
	rm -rf $(REL_BUILD)
	@$(MAKE) --no-print-directory BUILD=$(REL_BUILD) CC=$(REL_CC) AR=$(REL_TRIPLET)-ar \
		PKG_CONFIG='$(REL_PKG_CONFIG)' CFLAGS='$(REL_CFLAGS)' \
		$(REL_BUILD)/src/main.o $(REL_BUILD)/libperfverdict.a
	$(REL_CC) $(REL_CFLAGS) -c -o $(REL_BUILD)/no-icu.o ci/release/no-icu.c
	$(REL_CC) -static $(REL_SYSROOT:%=-L%/usr/lib/$(REL_TRIPLET)) \
		-o $@ $(REL_BUILD)/src/main.o $(REL_BUILD)/no-icu.o \
		$(REL_BUILD)/libperfverdict.a $(REL_LIBS) 2>$(REL_BUILD)/link.log || \
		{ cat $(REL_BUILD)/link.log >&2; exit 1; }
	$(REL_STRIP) --strip-all $@

build/sysroot-%/.done:
	rm -rf $(@D) && mkdir -p $(@D)
	cd $(@D) && apt-get download libgsl-dev:$(REL_DEBARCH) >/dev/null
	dpkg-deb -x $(@D)/libgsl-dev_*.deb $(@D)
	touch $@

$(REL_TAR): $(REL_BUILD)/perfverdict
	@mkdir -p dist
	rm -rf $(REL_BUILD)/$(REL_NAME)
	mkdir -p $(REL_BUILD)/$(REL_NAME)
	cp $(REL_BUILD)/perfverdict perfverdict.1 README.md CHANGELOG.md $(REL_BUILD)/$(REL_NAME)/
	cp -R schemas $(REL_BUILD)/$(REL_NAME)/
	LC_ALL=C tar --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
		--mode='u+rwX,go=rX,go-w' --mtime=@$(REL_EPOCH) -C $(REL_BUILD) \
		-cf - $(REL_NAME) | gzip -9n > $@.tmp && mv $@.tmp $@

# The .deb: the static binary, the man page where man finds it, no Depends.
$(REL_DEB): $(REL_BUILD)/perfverdict
	@mkdir -p dist
	rm -rf $(REL_BUILD)/deb
	mkdir -p $(REL_BUILD)/deb/DEBIAN $(REL_BUILD)/deb/usr/bin \
		$(REL_BUILD)/deb/usr/share/man/man1 $(REL_BUILD)/deb/usr/share/doc/perfverdict
	cp $(REL_BUILD)/perfverdict $(REL_BUILD)/deb/usr/bin/
	gzip -9n < perfverdict.1 > $(REL_BUILD)/deb/usr/share/man/man1/perfverdict.1.gz
	gzip -9n < CHANGELOG.md > $(REL_BUILD)/deb/usr/share/doc/perfverdict/changelog.gz
	sed -e 's/@VERSION@/$(VERSION)/' -e 's/@ARCH@/$(REL_DEBARCH)/' \
		-e "s/@SIZE@/$$(du -sk --apparent-size $(REL_BUILD)/deb/usr | cut -f1)/" \
		ci/release/control.in > $(REL_BUILD)/deb/DEBIAN/control
	chmod -R u+rwX,go=rX,go-w $(REL_BUILD)/deb
	find $(REL_BUILD)/deb -exec touch -h -d @$(REL_EPOCH) {} +
	SOURCE_DATE_EPOCH=$(REL_EPOCH) dpkg-deb --root-owner-group -Zxz --build \
		$(REL_BUILD)/deb $@.tmp >/dev/null && mv $@.tmp $@

# What make release and release-check need (root, or the command printed).
release-deps:
	@sh ci/scripts/install-deps.sh --release

release-check:
	sh tests/release/check.sh

FORCE:
.PHONY: release deb release-sums release-deps release-check FORCE
