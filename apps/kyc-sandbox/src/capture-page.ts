import { escapeHtml } from './pages.ts';

type TCaptureSession = { status: string; reason: string | null; returnUrl?: string | null | undefined };

/**
 * The hosted capture page a player opens from the casino (on a phone first): the document's front
 * and back (photo or PDF) and a selfie, taken with the front camera (`capture="user"` opens it on a
 * phone; "Use the camera" shows a live preview where the browser allows it) or picked from a file.
 */
export function capturePage(session: TCaptureSession): string {
  if (session.status !== 'created' && session.status !== 'resubmission_requested') {
    const back = session.returnUrl
      ? `<a class="button-link" href="${escapeHtml(session.returnUrl)}" data-testid="capture-return">Back to the site</a>`
      : '';
    return `<div class="card" data-testid="capture-done"><h1>Thank you</h1><p>Your documents were received (status: <b>${escapeHtml(session.status)}</b>). You can go back to the site.</p>${back}</div>`;
  }
  const again =
    session.status === 'resubmission_requested'
      ? `<div class="card error">Please send your documents again${session.reason ? `: ${escapeHtml(session.reason)}` : ''}.</div>`
      : '';
  return `${again}<div class="card"><h1>Verify your identity</h1>
<p class="notice">Sandbox provider: nothing is really checked; a tester decides.</p>
<p class="muted">Photos of your identity document (RG, CNH or passport), front and back, and a selfie. JPEG or PNG (documents also PDF), up to 8 MB each.</p>
<form id="capture">
<label for="document_front">Document, front</label><input id="document_front" type="file" accept="image/jpeg,image/png,application/pdf" capture="environment" required>
<label for="document_back">Document, back</label><input id="document_back" type="file" accept="image/jpeg,image/png,application/pdf" capture="environment" required>
<label for="selfie">Selfie</label><input id="selfie" type="file" accept="image/jpeg,image/png" capture="user">
<button class="secondary" type="button" id="camera">Use the camera for the selfie</button>
<video id="preview" playsinline muted hidden></video>
<button class="secondary" type="button" id="shoot" hidden>Take the selfie</button>
<canvas id="shot" hidden></canvas>
<p id="message" class="muted" role="status"></p>
<button class="primary" type="submit" id="send">Send</button>
</form></div>`;
}

export const CAPTURE_SCRIPT = `
(function(){
  var form=document.getElementById('capture'); if(!form) return;
  var message=document.getElementById('message'), shot=null;
  function read(input){return new Promise(function(ok,fail){var f=input.files&&input.files[0];if(!f){ok(null);return;}
    if(f.size>8*1024*1024){fail(new Error(input.id+': at most 8 MB'));return;}
    var r=new FileReader();r.onload=function(){ok(r.result)};r.onerror=function(){fail(r.error)};r.readAsDataURL(f);});}
  document.getElementById('camera').onclick=function(){
    if(!navigator.mediaDevices||!navigator.mediaDevices.getUserMedia){message.textContent='No camera here: pick a photo instead.';return;}
    navigator.mediaDevices.getUserMedia({video:{facingMode:'user'}}).then(function(stream){
      var video=document.getElementById('preview');video.srcObject=stream;video.hidden=false;video.play();
      var shoot=document.getElementById('shoot');shoot.hidden=false;
      shoot.onclick=function(){var c=document.getElementById('shot');c.width=video.videoWidth;c.height=video.videoHeight;
        c.getContext('2d').drawImage(video,0,0);shot=c.toDataURL('image/jpeg',0.9);c.hidden=false;video.hidden=true;shoot.hidden=true;
        stream.getTracks().forEach(function(t){t.stop()});message.textContent='Selfie taken.';};
    }).catch(function(){message.textContent='The camera is not available: pick a photo instead.';});
  };
  form.onsubmit=function(event){event.preventDefault();var send=document.getElementById('send');send.disabled=true;message.textContent='Sending…';
    Promise.all([read(document.getElementById('document_front')),read(document.getElementById('document_back')),read(document.getElementById('selfie'))])
    .then(function(files){var selfie=shot||files[2];if(!files[0]||!files[1]||!selfie)throw new Error('The two sides of the document and a selfie are needed.');
      return fetch(location.pathname,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({document_front:files[0],document_back:files[1],selfie:selfie})});})
    .then(function(response){return response.json().then(function(body){if(!response.ok)throw new Error(body.error||'Refused');location.reload();});})
    .catch(function(error){message.textContent=error.message;send.disabled=false;});
  };
})();`;
