"""The PDF of a photo (issue #15 point 5) from the photo page on a phone, in English and German:
the PDF link beside Save downloads the server's report under the photo's title, and poppler's
pdftotext finds the title and the place in it. The report itself is checked by the Swift tests
(PhotoPDFTests); this is the page's one link to it."""
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import messages
from photos_flows import here, make_jpeg, other_person, upload_through_api


@pytest.mark.parametrize("locale,language", [("en-US", "en"), ("de-DE", "de")], ids=["en", "de"])
def test_photo_page_pdf_link(phone_for, api, tmp_path, locale, language):
    m = messages(language)
    token = other_person(api)
    spot = here()
    title = f"Field 7 north edge {language}"
    photo = upload_through_api(api, token, make_jpeg(tmp_path, colours="orange-navy"), title, spot)

    phone = phone_for(locale, geolocation=spot)
    page = phone.page
    page.goto(f"/photos/{photo['id']}")
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    link = page.get_by_role("link", name=m["photo.pdf.label"], exact=True)
    expect(link).to_be_visible()
    expect(link).to_have_text(m["photo.pdf"])
    page.wait_for_function("() => [...document.images].every((image) => image.complete)")
    phone.shot("1-photo-with-pdf-link")

    with page.expect_download() as saving:
        link.click()
    download = saving.value
    assert download.suggested_filename == f"{title}.pdf"
    path = download.path()
    assert path.read_bytes()[:5] == b"%PDF-", "the download is a PDF"
    text = " ".join(subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True).stdout.split())
    assert title in text
    assert f"{spot['latitude']:.6f}" in text and f"{spot['longitude']:.6f}" in text, text
